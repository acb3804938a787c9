"""The page in the browser (`oddscalc serve`): every query and study as a form, its answer
rendered on the server, a permalink that recomputes it, and a JSON API.

`app.create_app()` builds the ASGI app (Starlette, templates with Jinja2); `runs` turns a
request into a command line's words and runs it under the page's caps; `forms` builds a
query's fields from the command-line options; `render` turns an answer into HTML.
"""

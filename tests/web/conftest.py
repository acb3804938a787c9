"""The page's app through Starlette's test client, shared by the web tests."""

import pytest


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from oddscalc.web.app import create_app

    with TestClient(create_app(), base_url="http://localhost") as test:  # a name the page answers to
        yield test

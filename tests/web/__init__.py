"""Tests of oddscalc/web (a package here so that its module names do not clash with other folders')."""

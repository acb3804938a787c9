"""Tests of oddscalc/t9a (a package here so that its module names do not clash with other folders')."""

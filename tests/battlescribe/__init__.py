"""Tests of oddscalc/battlescribe (a package here so that its module names do not clash with other folders')."""

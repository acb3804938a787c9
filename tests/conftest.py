import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
os.environ.setdefault("MPLBACKEND", "Agg")


import pytest


@pytest.fixture(scope="session")
def cluster():
    """A two-worker Dask LocalCluster in separate processes (started once)."""
    distributed = pytest.importorskip("distributed")
    local = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    yield local
    local.close()

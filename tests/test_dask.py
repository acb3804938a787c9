"""A Dask cluster that fails: no workers, a lost worker, a lost scheduler. Each ends in
the right answer or one line, within seconds."""

import threading
import time

import pytest

from oddscalc import cells
from oddscalc.errors import InputError
from oddscalc.roll import HitAndSave

distributed = pytest.importorskip("distributed")

ATTACKS = [HitAndSave(n, 4, 5) for n in range(1, 7)]


def local(workers: int):
    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                                    dashboard_address=None)


def test_a_scheduler_without_workers_is_refused_within_the_timeout():
    with local(0) as cluster:
        started = time.monotonic()
        with pytest.raises(InputError) as error:
            cells.run_cells(ATTACKS, trials=1000, seed=1, scheduler=cells.Cluster(cluster.scheduler_address, 1.5))
        assert "no Dask worker joined within 1.5 s" in error.value.allowed
        assert time.monotonic() - started < 10


def test_a_lost_worker_s_cells_run_on_the_others():
    attacks = [HitAndSave(10, 4, n) for n in range(2, 7)] * 4
    expected, _ = cells.run_cells(attacks, trials=3_000_000, seed=3)
    with local(2) as cluster:
        victim = next(iter(cluster.workers.values()))
        started = time.monotonic()
        threading.Timer(0.1, lambda: cluster.sync(victim.close)).start()
        results, _ = cells.run_cells(attacks, trials=3_000_000, seed=3, scheduler=cluster.scheduler_address)
        assert time.monotonic() - started > 0.1 and victim.status.name in ("closed", "closing")
        assert len(cluster.scheduler.workers) == 1
    assert all(a["unsaved"] == b["unsaved"] for a, b in zip(results, expected))


def test_a_lost_scheduler_gives_one_line():
    cluster = local(1)
    address = cluster.scheduler_address
    threading.Timer(0.5, cluster.close).start()
    started = time.monotonic()
    with pytest.raises(InputError) as error:
        cells.run_cells([HitAndSave(10, 4, 5)] * 40, trials=5_000_000, seed=1,
                        scheduler=cells.Cluster(address, 2))
    assert error.value.name == "scheduler" and "\n" not in error.value.allowed
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("address", ["", "localhost", "tcp://", "http://host:1"])
def test_a_malformed_address_is_refused_at_once(address):
    with pytest.raises(InputError) as error:
        cells.run_cells(ATTACKS[:1], trials=100, seed=1, scheduler=address)
    assert error.value.name == "scheduler" and "tcp://host:8786" in error.value.allowed

"""The cells of a study (`oddscalc.studies.cells`): each cell's seed, and the same table in series, in
threads and on a Dask cluster. Then a Dask cluster that fails: no workers, a lost worker, a lost
scheduler. Each ends in the right answer or one line, within seconds."""

import os
import threading
import time

import pytest

from conftest import dask_or_skip

from oddscalc.studies import cells
from oddscalc.core import engine
from oddscalc.errors import InputError
from oddscalc.core.hits import HitAndSave

try:
    import distributed
except ImportError:
    distributed = None

ATTACKS = [HitAndSave(n, 4, 5) for n in range(1, 6)]
SIX = [HitAndSave(n, 4, 5) for n in range(1, 7)]  # the failing clusters' cells


def same(a: engine.Result, b: engine.Result) -> bool:
    return a.outcomes.keys() == b.outcomes.keys() and all(a[k] == b[k] for k in a.outcomes)


def failing_cluster(test):
    """A test on a Dask cluster that fails: skipped without Dask's `distributed` (a failure where
    ODDSCALC_CLUSTER_TESTS=required, as in .ci/run), and marked `dask` so that `-k "not dask"`
    (the mutation runs) leaves it out."""
    needs = pytest.mark.skipif(distributed is None and os.environ.get("ODDSCALC_CLUSTER_TESTS") != "required",
                               reason="could not import 'distributed'")
    return pytest.mark.dask(needs(test))


# --- the cells of a study: seeds, series, threads and a cluster that works --------------------


def test_cell_seed_depends_on_the_seed_and_the_attack_only():
    assert cells.cell_seed(1, HitAndSave(3, 4, 5)) == cells.cell_seed(1, HitAndSave(3, 4, 5))
    assert cells.cell_seed(1, HitAndSave(3, 4, 5)) != cells.cell_seed(2, HitAndSave(3, 4, 5))
    assert cells.cell_seed(1, HitAndSave(3, 4, 5)) != cells.cell_seed(1, HitAndSave(3, 4, 4))


def test_threads_give_the_same_table_as_series():
    series, seed = cells.run_cells(ATTACKS, trials=20_000, seed=7, threads=1)
    parallel, _ = cells.run_cells(ATTACKS, trials=20_000, seed=7, threads=2)
    assert seed == 7
    assert all(same(a, b) for a, b in zip(series, parallel))


def test_adding_a_cell_does_not_change_the_others():
    fewer, _ = cells.run_cells(ATTACKS[:3], trials=20_000, seed=7)
    more, _ = cells.run_cells([HitAndSave(9, 3, 3)] + ATTACKS, trials=20_000, seed=7)
    assert all(same(a, b) for a, b in zip(fewer, more[1:4]))


def test_exact_cells_have_no_seed():
    results, seed = cells.run_cells(ATTACKS[:2], method="exact")
    assert seed is None and results[0].method == "exact"


def test_a_dask_cluster_gives_the_same_table(cluster):
    local, _ = cells.run_cells(ATTACKS, trials=30_000, seed=11)
    remote, _ = cells.run_cells(ATTACKS, trials=30_000, seed=11, scheduler=cluster.scheduler_address)
    assert all(same(a, b) for a, b in zip(local, remote))


def test_no_scheduler_there_is_a_clear_error(monkeypatch):
    dask_or_skip()
    monkeypatch.setattr(cells, "DASK_TIMEOUT", "1s")
    with pytest.raises(InputError) as error:
        cells.run_cells(ATTACKS[:1], trials=1000, seed=1, scheduler="tcp://127.0.0.1:1")
    assert error.value.name == "scheduler"


# --- a Dask cluster that fails ----------------------------------------------------------------


def local(workers: int):
    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                                    dashboard_address=None)


@failing_cluster
def test_a_scheduler_without_workers_is_refused_within_the_timeout():
    with local(0) as cluster:
        started = time.monotonic()
        with pytest.raises(InputError) as error:
            cells.run_cells(SIX, trials=1000, seed=1, scheduler=cells.Cluster(cluster.scheduler_address, 1.5))
        assert "no Dask worker joined within 1.5 s" in error.value.allowed
        assert time.monotonic() - started < 10


@failing_cluster
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


@failing_cluster
def test_a_lost_scheduler_gives_one_line(caplog):
    cluster = local(1)
    address = cluster.scheduler_address
    threading.Timer(0.5, cluster.close).start()
    started = time.monotonic()
    with pytest.raises(InputError) as error:
        cells.run_cells([HitAndSave(10, 4, 5)] * 40, trials=5_000_000, seed=1,
                        scheduler=cells.Cluster(address, 2))
    assert error.value.name == "scheduler" and "\n" not in error.value.allowed
    assert time.monotonic() - started < 30
    # the client's loggers say nothing of their own during the run (else 30 lines above the one line)
    assert [record for record in caplog.records if record.name.startswith("distributed.client")] == []


@failing_cluster
@pytest.mark.parametrize("address", ["", "localhost", "tcp://", "http://host:1", "tcp://[:::", "tls://", "inproc://",
                                     "ucx://host:1", "tls://host:8786", "tcp://host:65536",
                                     "tcp://" + "a" * 5000 + ":1", "tcp://host:٨٧٨٦", "tcp://host:８７８６"])
def test_a_malformed_address_is_refused_at_once(address):
    started = time.monotonic()
    with pytest.raises(InputError) as error:
        cells.run_cells(SIX[:1], trials=100, seed=1, scheduler=address)
    assert error.value.name == "scheduler" and "tcp://host:8786" in error.value.allowed
    assert len(str(error.value)) < 200 and time.monotonic() - started < 1


@failing_cluster
def test_a_ctrl_c_cancels_the_cells_left_on_the_cluster():
    """The next run would otherwise wait behind them."""
    import _thread

    with local(1) as cluster:
        threading.Timer(1.0, _thread.interrupt_main).start()
        with pytest.raises(KeyboardInterrupt):
            cells.run_cells([HitAndSave(10, 4, 5)] * 40, trials=20_000_000, seed=1,
                            scheduler=cells.Cluster(cluster.scheduler_address, 5))
        deadline = time.monotonic() + 5
        while cluster.scheduler.tasks and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not cluster.scheduler.tasks



@failing_cluster
def test_a_stopped_run_leaves_no_cell_computing_for_the_next_run_to_wait_behind():
    """A cell already running on the worker stops at its next chunk (a task cannot be taken back): the next
    run on the same one-thread worker answers at once (it waited behind a whole 10^9-trial cell, minutes)."""
    with local(1) as cluster:
        stop = cells.Cancel()
        threading.Timer(1.5, stop.cancel).start()
        with pytest.raises(cells.Cancelled):
            cells.run_cells([HitAndSave(10, 4, 5)] * 4, trials=1_000_000_000, seed=1, cancel=stop,
                            scheduler=cells.Cluster(cluster.scheduler_address, 5))
        started = time.monotonic()
        results, _ = cells.run_cells(SIX[:1], trials=1000, seed=1,
                                     scheduler=cells.Cluster(cluster.scheduler_address, 5))
        assert results[0].trials == 1000 and time.monotonic() - started < 5


@failing_cluster
def test_a_silent_scheduler_is_given_up_within_the_timeout(monkeypatch):
    """A scheduler that is there but does not answer (a stopped process, a broken network)."""
    with local(1) as cluster:
        def silent(self, *args, **kwargs):
            time.sleep(3600)

        monkeypatch.setattr(distributed.Client, "run_on_scheduler", silent)
        started = time.monotonic()
        with pytest.raises(InputError) as error:
            cells.run_cells([HitAndSave(10, 4, 5)] * 40, trials=20_000_000, seed=1,
                            scheduler=cells.Cluster(cluster.scheduler_address, 1.5))
        assert error.value.allowed == "the scheduler was silent for 1.5 s (stopped, or out of reach)"
        assert time.monotonic() - started < 1.5 + 2 * cells.POLL + 1


def test_a_cluster_gets_the_cells_in_order_in_a_few_batches_per_worker():
    from oddscalc.studies.cells import TASKS_PER_WORKER, batches

    cut = batches(list(range(10)), 2)
    assert [item for batch in cut for item in batch] == list(range(10))  # every cell once, in order
    assert len(cut) == min(10, TASKS_PER_WORKER * 2) and {len(batch) for batch in cut} <= {1, 2}
    assert batches(list(range(1001)), 2) == [list(range(i * 125 + min(i, 1), (i + 1) * 125 + min(i + 1, 1)))
                                             for i in range(8)]  # 8 tasks of 125 or 126, the first one longer
    assert batches(["a"], 3) == [["a"]] and batches([], 2) == [[]]


def test_exact_cells_run_on_one_thread_unless_threads_are_asked_for(monkeypatch):
    """An exact twin is Python: two threads only share the interpreter, so exact cells run one after another on
    the calling thread; --threads N given is honoured (never silently dropped)."""
    import threading

    from oddscalc.studies import cells
    from oddscalc.core.roll import Roll

    seen: list[int] = []
    real = cells.run_cell
    monkeypatch.setattr(cells, "run_cell", lambda attack, seed, options: (seen.append(threading.get_ident()),
                                                                         real(attack, seed, options))[1])
    attacks = [Roll(f"{n}d6") for n in range(1, 7)]
    cells.run_cells(attacks, method="exact")
    assert set(seen) == {threading.get_ident()}
    seen.clear()
    from oddscalc.core import options
    monkeypatch.setattr(options, "every_core", lambda: 4)  # (as on a machine of several cores)
    cells.run_cells(attacks, method="exact", threads=2)
    assert threading.get_ident() not in seen and len(seen) == 6


@pytest.mark.parametrize("times, count, allowed, projected", [
    ([1.0, 1.0, 1.0], 10, 9.9, 10),  # 3 s done, 7 cells left at 1 s
    ([1.0, 2.0, 3.0], 10, 54.9, 55),  # 6 s done, 7 left from 3 s growing 1 s a cell: 21 + 28
    ([3.0, 2.0, 1.0], 10, 19.9, 20),  # shrinking: the mean (2 s) for each of the 7 left, never less
])
def test_a_study_past_its_seconds_is_refused_from_its_cells_so_far(times, count, allowed, projected):
    from oddscalc.core.options import RunOptions

    exact, sampled = RunOptions(method="exact", seconds=allowed), RunOptions(seconds=allowed)
    with pytest.raises(InputError) as refused:
        cells.afford_seconds(exact, times, count, sum(times))
    assert refused.value.name == "exact" and refused.value.value == f"{count} cells"
    assert refused.value.allowed.startswith(f"would take about {projected} s here (its first 3 cells took "
                                            f"{sum(times):.1f} s), more than the {allowed:g} s a run may take here: "
                                            "sample it (leave out --exact)")
    with pytest.raises(InputError) as refused:
        cells.afford_seconds(sampled, times, count, sum(times))
    assert refused.value.name == "trials" and refused.value.allowed.endswith(
        f"more than the {allowed:g} s a run may take here: ask for fewer --trials, or run it on the command line")
    cells.afford_seconds(RunOptions(method="exact", seconds=projected + 0.1), times, count, sum(times))  # fits
    cells.afford_seconds(RunOptions(method="exact", seconds=30 * sum(times) + 1), [9.0], 10**6, sum(times))  # early


def test_a_cancelled_study_stops_between_its_cells():
    from oddscalc.core.options import Cancel, Cancelled

    cancel, seen = Cancel(), []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done == 2:
            cancel.cancel()

    attacks = [HitAndSave(dice=n, to_hit=4, save=7) for n in range(1, 6)]
    with pytest.raises(Cancelled):
        cells.run_cells(attacks, method="exact", cancel=cancel, progress=progress)
    assert seen == [1, 2]


def test_a_studys_projection_at_its_edges():
    """Refused from a thirtieth of the allowance on (not before); two cells give a growth, one none; a study that
    would take exactly its allowance is not refused."""
    from oddscalc.core.options import RunOptions

    def refused(times: list[float], count: int, allowed: float) -> bool:
        try:
            cells.afford_seconds(RunOptions(method="exact", seconds=allowed), times, count, sum(times))
        except InputError:
            return True
        return False

    assert refused([1.0], 100, 30) and not refused([0.99], 100, 30)  # 1 s is a thirtieth of 30 s
    assert refused([1.0, 2.0], 4, 9.9) and not refused([1.0, 2.0], 4, 10)  # 3 + 2 × 2 + 1 × (1 + 2): 10 s
    assert not refused([2.0], 3, 6) and refused([2.0], 3, 5.9)  # one cell: no growth, 2 + 2 × 2

"""Run per-file analyses as they are asked for: from the cache, in worker processes, or inline.

The pipeline (pipeline.analyze_all, with the prefilter) learns which files to analyse from the
results of earlier ones, so work arrives in waves. Waiting for a whole wave before asking the link
step for the next one leaves a core idle at the end of every wave (one big file still running) and
both idle while the link step runs. So work is submitted file by file to the pool and results are
collected as they finish: the caller asks the link step again as soon as a worker is free, and the
next files start while the last ones of the previous wave are still running.

With one job, or while at most one file is waiting, files are analysed inline (no pool is started:
a one-file run must not pay for multiprocessing).
"""

from __future__ import annotations

import gc
import heapq
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from mcp_lint import per_file, regex_store
from mcp_lint.cache import file_key
from mcp_lint.framework_copies import FrameworkCopy, find_copies
from mcp_lint.per_file import FileOutcome, display_name, unreadable

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from mcp_lint.cache import Cache
    from mcp_lint.findings import Finding
    from mcp_lint.per_file import FileInput


class Analyzer:
    """Analyses files (indexes into `items`); `collect` returns their outcomes as they finish."""

    def __init__(
        self,
        items: Sequence[FileInput],
        jobs: int,
        cache: Cache | None,
        codes: frozenset[str] | None,
        unreadable_files: dict[int, FileOutcome],
    ) -> None:
        self.items = items
        self.capacity = max(1, jobs)
        self.cache = cache
        self.codes = codes
        self.unreadable_files = unreadable_files
        # The framework copies among the run's files: every analysis reads names under them as
        # the framework's (framework_copies.py), and its cache key says so.
        self.copies = find_copies((item.module.dotted, item.data) for item in items if item.source is not None)
        self._ready: list[tuple[int, FileOutcome]] = []
        self._queue: list[tuple[int, int]] = []  # (-size, index): largest first
        self._running: dict[Future, int] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._checks: dict[int, tuple[list[int], Future]] = {}  # syntax checks started: chunk, its future

    # -- submitting ----------------------------------------------------------------------------
    def submit(self, indexes: Iterable[int]) -> None:
        for index in indexes:
            item = self.items[index]
            if index in self.unreadable_files:
                self._ready.append((index, self.unreadable_files[index]))
                continue
            stored = self.cache.load_file(file_key(item, self.codes, self.copies)) if self.cache is not None else None
            if stored is not None:
                self._ready.append((index, FileOutcome(item.display, summary=stored[0], problem=stored[1], source=item.source)))
                continue
            heapq.heappush(self._queue, (-item.size, index))
        if self.capacity > 1 and len(self._queue) + len(self._running) > 1:
            self._start_queued()

    def pending(self) -> int:
        """Jobs submitted and not yet collected (cached results count until collected)."""
        return len(self._ready) + len(self._queue) + len(self._running)

    def busy(self) -> bool:
        """Whether every worker has a job: asking the link step for more would only wait."""
        return len(self._running) + len(self._queue) >= self.capacity

    # -- collecting ----------------------------------------------------------------------------
    def collect(self) -> list[tuple[int, FileOutcome]]:
        """The files finished since the last call: at least one if any is pending (it blocks)."""
        if not self._ready:
            if self._running:
                self._wait()
            elif self._queue:
                _, index = heapq.heappop(self._queue)
                self._finish(index, per_file.analyze_path(*self._arguments(index)))
        ready, self._ready = self._ready, []
        return ready

    def start_parse_checks(self, indexes: Sequence[int]) -> None:
        """Start per_file.parse_problem of each file (for the files the prefilter left out) in the
        workers, when a pool is running and there are enough of them to be worth sending; the
        verdicts are read by `parse_problems`."""
        indexes = [index for index in indexes if index not in self._checks]
        if self._pool is None or len(indexes) < _SPLIT_PARSE_CHECKS_AT:
            return
        bins: list[list[int]] = [[] for _ in range(2 * self.capacity)]
        loads = [0] * len(bins)
        for index in sorted(indexes, key=lambda i: -self.items[i].size):  # largest first, to the lightest bin
            lightest = loads.index(min(loads))
            bins[lightest].append(index)
            loads[lightest] += self.items[index].size
        for chunk in bins:
            if chunk:
                future = self._pool.submit(_parse_problems_in_worker, [self._parse_arguments(i) for i in chunk])
                for index in chunk:
                    self._checks[index] = (chunk, future)

    def parse_problems(self, indexes: Sequence[int]) -> dict[int, Finding | None]:
        """per_file.parse_problem of each file: an MCP000 finding, or None when it parses. In the
        workers (`start_parse_checks`, if not started yet) or, for a few files or without a pool,
        here: the analyses are done, and inline the checks would keep one core busy alone."""
        self.start_parse_checks(indexes)
        found: dict[int, Finding | None] = {}
        for index in indexes:
            if index in found:
                continue
            started = self._checks.get(index)
            if started is None:
                found[index] = self._parse_problem(index)
                continue
            # Imported only here: a run without a pool (one file) must not pay for multiprocessing.
            from concurrent.futures.process import BrokenProcessPool

            chunk, future = started
            try:
                found.update(zip(chunk, future.result()))
            except BrokenProcessPool:  # the parser crashed a worker: judge its files here, as before
                found.update((i, self._parse_problem(i)) for i in chunk)
        return {index: found[index] for index in indexes}

    def _parse_arguments(self, index: int) -> tuple[Any, str, str]:
        item = self.items[index]
        return item.source, str(item.path), item.display

    def _parse_problem(self, index: int) -> Finding | None:
        source, path_text, display = self._parse_arguments(index)
        return per_file.parse_problem(source, Path(path_text), display)

    def close(self) -> None:
        """Stop the workers; files not started yet are dropped (the run was interrupted or
        failed if any are left)."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    # -- internals -----------------------------------------------------------------------------
    def _arguments(self, index: int) -> tuple[str, Any, frozenset[str] | None, tuple[FrameworkCopy, ...]]:
        item = self.items[index]
        return str(item.path), item.source, self.codes, self.copies

    def _start_queued(self) -> None:
        if self._pool is None:
            # Imported here: multiprocessing costs a one-file run more than its own analysis.
            from concurrent.futures import ProcessPoolExecutor

            # Imported once here, inherited by the forked workers: libcst, the model, and the
            # rules this run selected (each worker would otherwise import and compile them).
            per_file.load_analysis(self.codes)
            # Everything alive now lives for the run. Frozen, the workers' garbage collections
            # never walk it: a walk writes to every object's header, and so copies every
            # inherited page into each worker.
            gc.freeze()
            self._pool = ProcessPoolExecutor(max_workers=self.capacity, initializer=_start_worker)
        while self._queue:
            _, index = heapq.heappop(self._queue)
            self._running[self._pool.submit(_analyze_in_worker, *self._arguments(index))] = index

    def _wait(self) -> None:
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool

        finished, _ = wait(list(self._running), return_when=FIRST_COMPLETED)
        broken = False
        for future in finished:
            index = self._running.pop(future)
            try:
                outcome = future.result()
            except BrokenProcessPool:
                broken = True
                self._alone(index)
                continue
            self._finish(index, outcome)
        if broken:
            self._survive_crash()

    def _survive_crash(self) -> None:
        """A worker died (a native crash in the parser): the pool is unusable. Every file it had
        not finished is analysed again, each in a process of its own, so the one that kills its
        process is reported as MCP000 instead of taking the run down; later jobs get a new pool."""
        assert self._pool is not None
        self._pool.shutdown(wait=False)
        self._pool = None
        running, self._running = self._running, {}
        for future, index in running.items():
            try:
                outcome = future.result(timeout=0) if future.done() else None
            except Exception:  # noqa: BLE001 - BrokenProcessPool: not finished before the crash
                outcome = None
            if outcome is None:
                self._alone(index)
            else:
                self._finish(index, outcome)

    def _alone(self, index: int) -> None:
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        path_text, source, codes, copies = self._arguments(index)
        try:
            with ProcessPoolExecutor(max_workers=1) as alone:
                outcome = alone.submit(per_file.analyze_path, path_text, source, codes, copies).result()
        except BrokenProcessPool:
            display = display_name(Path(path_text))
            outcome = FileOutcome(display, problem=unreadable(display, "the parser crashed on this file"), source=source)
        self._finish(index, outcome)

    def _finish(self, index: int, outcome: FileOutcome) -> None:
        item = self.items[index]
        outcome.source = item.source  # the worker's copy is equal; keep one
        if self.cache is not None and outcome.internal_error is None:
            self.cache.store_file(file_key(item, self.codes, self.copies), outcome.summary, outcome.problem)
        self._ready.append((index, outcome))


# Fewer files than this left out by the prefilter are checked for syntax in the parent: sending
# them costs more than the check.
_SPLIT_PARSE_CHECKS_AT = 16

# --- in the worker processes ----------------------------------------------------------------------

# A worker runs with the cyclic collector off (about 4% of its CPU: a parse allocates hundreds of
# thousands of objects, freed by reference counting, that the collector would walk anyway) and
# collects once every this many files, which bounds what cycles the analyses leave behind.
_COLLECT_EVERY = 20
_analysed = 0


def _parse_problems_in_worker(files: list[tuple[Any, str, str]]) -> list[Finding | None]:
    return [per_file.parse_problem(source, Path(path_text), display) for source, path_text, display in files]


def _start_worker() -> None:
    gc.disable()
    regex_store.save_when_worker_ends()  # a no-op unless the command installed the store


def _analyze_in_worker(
    path_text: str, source: Any, codes: frozenset[str] | None, copies: tuple[FrameworkCopy, ...]
) -> FileOutcome:
    global _analysed
    outcome = per_file.analyze_path(path_text, source, codes, copies)
    outcome.source = None  # the parent has the text: not worth pickling back
    _analysed += 1
    if _analysed % _COLLECT_EVERY == 0:
        gc.collect()
    return outcome

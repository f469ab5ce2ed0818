"""Batch cycles driven one at a time, so a test sees every phase of a batch job."""

from __future__ import annotations

import asyncio

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.engine.batch import BatchEngine
from docbatch_gui.engine.worker import LocalWorker


def cycles(app: DocBatchApp, count: int = 1) -> None:
    """``count`` whole cycles: prepare while polling, then submit."""

    async def main() -> None:
        worker = LocalWorker(app.context)
        client = app.batch_client()
        assert client is not None
        try:
            for _ in range(count):
                await app._batch_cycle(worker, client)
        finally:
            await client.close()

    asyncio.run(main())


def poll_once(app: DocBatchApp) -> None:
    """A cycle's poll alone: the open batches retrieved, the ended ones' results built,
    and nothing sent, so a test sees a job waiting for its next batch."""

    async def main() -> None:
        client = app.batch_client()
        assert client is not None
        try:
            await BatchEngine(app.context, client, LocalWorker(app.context)).poll()
        finally:
            await client.close()

    asyncio.run(main())

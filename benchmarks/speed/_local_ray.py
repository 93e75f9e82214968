"""A local Ray instance for the speed benchmarks, started the same way by each of them."""

from __future__ import annotations

import logging
import time


def start_local_ray(workers: int) -> str:
    """Start a local Ray instance of ``workers`` CPUs, quiet; the line saying how long it
    took. ImportError without the ``ray`` extra."""
    import ray  # the ray extra

    t0 = time.perf_counter()
    ray.init(
        num_cpus=workers,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.ERROR,
    )
    return f"Ray {ray.__version__}: local instance started in {time.perf_counter() - t0:.1f} s"


def stop_local_ray() -> None:
    """Shut down the instance :func:`start_local_ray` started."""
    import ray  # the ray extra

    ray.shutdown()

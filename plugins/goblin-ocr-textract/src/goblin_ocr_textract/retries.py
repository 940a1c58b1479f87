"""Retrying throttled and transient Textract and S3 calls with exponential backoff and jitter."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from botocore.exceptions import (
    ClientError,
    ConnectionClosedError,
    ConnectTimeoutError,
    EndpointConnectionError,
    ReadTimeoutError,
)

if TYPE_CHECKING:
    from tenacity import RetryCallState
    from tenacity.stop import stop_base

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Error codes AWS documents as worth retrying for Textract and S3, and the
#: throttling code API Gateway-style front ends answer with.
TRANSIENT_CODES = frozenset({
    "ThrottlingException",
    "ProvisionedThroughputExceededException",
    "LimitExceededException",
    "TooManyRequestsException",
    "InternalServerError",
    "ServiceUnavailable",
    "ServiceUnavailableException",
    "RequestTimeout",
    "SlowDown",
})
#: HTTP 429 Too Many Requests: throttling, whatever the body says (a proxy's
#: answer often has no AWS error code at all).
_TOO_MANY_REQUESTS = 429
_NETWORK_ERRORS = (ConnectionClosedError, ConnectTimeoutError, EndpointConnectionError,
                   ReadTimeoutError)


def is_transient(error: BaseException) -> bool:
    """True for throttling, 5xx answers and dropped connections."""
    if isinstance(error, _NETWORK_ERRORS):
        return True
    if not isinstance(error, ClientError):
        return False
    code = error.response.get("Error", {}).get("Code", "")
    status = int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
    return code in TRANSIENT_CODES or status >= 500 or status == _TOO_MANY_REQUESTS


def _log_retry(state: RetryCallState) -> None:
    error = state.outcome.exception() if state.outcome else None
    wait = state.next_action.sleep if state.next_action else 0.0
    log.info("Textract call failed (%s); attempt %d, retrying in %.1fs", error,
             state.attempt_number, wait)


def with_retries(call: Callable[..., T], options: Mapping[str, Any], *,
                 deadline: float | None = None, **kwargs: Any) -> T:
    """``call(**kwargs)``, retried on transient errors; the last error is re-raised.

    Retries stop after ``textract.max_attempts`` attempts, and before a backoff
    would end past ``deadline`` (a ``time.monotonic()`` value): a service that
    throttles or stalls forever costs at most the time the caller has left.
    """
    # tenacity loads asyncio and more: imported on the first call to AWS, not at start-up
    from tenacity import (
        Retrying,
        retry_if_exception,
        stop_after_attempt,
        stop_before_delay,
        wait_random_exponential,
    )

    stop: stop_base = stop_after_attempt(int(options["max_attempts"]))
    if deadline is not None:
        stop = stop | stop_before_delay(max(deadline - time.monotonic(), 0.0))
    retrying = Retrying(
        retry=retry_if_exception(is_transient),
        wait=wait_random_exponential(multiplier=float(options["backoff_initial"]),
                                     max=float(options["backoff_max"])),
        stop=stop,
        before_sleep=_log_retry,
        reraise=True,
    )
    return retrying(call, **kwargs)

"""Retrying throttled and transient Textract and S3 calls with exponential backoff and jitter."""

from __future__ import annotations

import logging
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

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Error codes AWS documents as worth retrying for Textract and S3.
TRANSIENT_CODES = frozenset({
    "ThrottlingException",
    "ProvisionedThroughputExceededException",
    "LimitExceededException",
    "InternalServerError",
    "ServiceUnavailable",
    "ServiceUnavailableException",
    "RequestTimeout",
    "SlowDown",
})
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
    return code in TRANSIENT_CODES or status >= 500


def _log_retry(state: RetryCallState) -> None:
    error = state.outcome.exception() if state.outcome else None
    wait = state.next_action.sleep if state.next_action else 0.0
    log.info("Textract call failed (%s); attempt %d, retrying in %.1fs", error,
             state.attempt_number, wait)


def with_retries(call: Callable[..., T], options: Mapping[str, Any], **kwargs: Any) -> T:
    """``call(**kwargs)``, retried on transient errors; the last error is re-raised."""
    # tenacity loads asyncio and more: imported on the first call to AWS, not at start-up
    from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_random_exponential

    retrying = Retrying(
        retry=retry_if_exception(is_transient),
        wait=wait_random_exponential(multiplier=float(options["backoff_initial"]),
                                     max=float(options["backoff_max"])),
        stop=stop_after_attempt(int(options["max_attempts"])),
        before_sleep=_log_retry,
        reraise=True,
    )
    return retrying(call, **kwargs)

"""boto3 clients built from goblin's config and credentials found without the network."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping
from typing import Any

from botocore.exceptions import BotoCoreError

from goblin_core.config import Config
from goblin_core.deadline import time_left as document_time_left
from goblin_core.errors import EngineUnavailable, ExtractionTimeout
from goblin_ocr_textract.credentials import find_credentials, find_region
from goblin_ocr_textract.redaction import mask_credentials_in_logs

#: Why Textract cannot be called without a region, and where to set one.
NO_REGION = ("no AWS region: set textract.region, AWS_REGION or AWS_DEFAULT_REGION, or a "
             "region in the profile's ~/.aws/config")


class ResponseTooLarge(BotoCoreError):
    """An answer longer than ``textract.max_response_bytes``, refused before it is parsed."""

    fmt = ("{operation} answered with {size:,} bytes, over textract.max_response_bytes "
           "({limit:,}); not parsed")


def seconds_left(config: Config) -> float:
    """How long a call may take: ``limits.timeout``, and no more than the document being
    extracted has left of it (a page read late in a long document gets what remains).
    ExtractionTimeout when nothing is left."""
    limit = float(config.limits["timeout"])
    left = document_time_left()
    if left is not None and left <= 0:
        raise ExtractionTimeout("the document's time limit (limits.timeout) ran out "
                                "before Textract was called")
    return limit if left is None else min(limit, left)


def make_client(service: str, options: Mapping[str, Any], *,
                time_left: float | None = None) -> Any:
    """A Textract or S3 client; EngineUnavailable when credentials or region are missing.

    botocore's own retries are off: goblin retries with backoff and jitter
    itself (``with_retries``) so attempts are counted once. One response is
    awaited at most ``textract.timeout`` seconds, and no longer than
    ``time_left``; an answer over ``textract.max_response_bytes`` is refused
    before botocore parses it, which takes some twenty times its size.
    """
    # boto3 is imported on first use: loading it costs every worker and every
    # goblin command seconds, and most runs never call Textract.
    import boto3
    from botocore.config import Config as BotoConfig

    mask_credentials_in_logs()
    profile = str(options["profile"])
    found = find_credentials(profile, options)
    if found.credentials is None and not options.get("use_default_credentials"):
        raise EngineUnavailable(f"no AWS credentials (looked in {found.looked_in})")
    region = find_region(str(options["region"]), profile)
    if not region:
        raise EngineUnavailable(NO_REGION)
    endpoint = str(options["endpoint_url"])
    if service == "s3":
        endpoint = str(options["s3_endpoint_url"]) or endpoint
    wait = float(options["timeout"])
    if time_left is not None:
        wait = max(min(wait, time_left), 1.0)
    settings = BotoConfig(
        region_name=region,
        retries={"total_max_attempts": 1},
        connect_timeout=wait,
        read_timeout=wait,
        s3={"addressing_style": "path"} if endpoint else None,
    )
    if found.credentials is None:
        # use_default_credentials: boto3's own chain (container, web identity, instance role)
        client = boto3.session.Session().client(service, endpoint_url=endpoint or None,
                                                config=settings)
    else:
        frozen = found.credentials.get_frozen_credentials()
        client = _keyed_session(_existing_profile(profile)).client(
            service,
            endpoint_url=endpoint or None,
            aws_access_key_id=frozen.access_key,
            aws_secret_access_key=frozen.secret_key,
            aws_session_token=frozen.token,
            config=settings,
        )
    if service == "textract":
        client.meta.events.register("before-parse.textract.*",
                                    _size_check(int(options["max_response_bytes"])))
    return client


@functools.cache
def _keyed_session(profile: str | None) -> Any:
    """The boto3 session that clients given their keys are made from, with the settings
    of ``profile`` (None: of none named): a session loads the service's description on its
    first client, 0.15 s that every page paid when each had a session of its own. (A
    client told to find its own credentials gets a fresh session: a cached one would keep
    the role it found first.)

    The profile is pinned, not read from AWS_PROFILE by botocore: goblin takes keys from
    the environment before any profile, and a session left to read an AWS_PROFILE naming
    no profile in the shared files failed every page ("The config profile (x) could not
    be found") after Textract had been found available with those keys."""
    import boto3
    import botocore.session

    core = botocore.session.Session(session_vars={"profile": (None, None, None, None)})
    if profile is not None:
        core.set_config_variable("profile", profile)
    return boto3.session.Session(botocore_session=core)


def _existing_profile(profile: str) -> str | None:
    """The profile whose settings a client given its keys takes: ``textract.profile``,
    else AWS_PROFILE, when the shared files have it; None (their default section, if any)
    otherwise."""
    import botocore.session

    name = profile or os.environ.get("AWS_PROFILE") or ""
    if not name:
        return None
    files = botocore.session.Session(session_vars={"profile": (None, None, None, None)})
    return name if name in files.available_profiles else None


def _size_check(limit: int) -> Callable[..., None]:
    def check(operation_model: Any, response_dict: Mapping[str, Any], **_: Any) -> None:
        body = response_dict.get("body")
        if isinstance(body, bytes | bytearray) and len(body) > limit:
            raise ResponseTooLarge(operation=operation_model.name, size=len(body), limit=limit)
    return check

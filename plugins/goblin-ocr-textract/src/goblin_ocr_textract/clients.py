"""boto3 clients built from goblin's config and credentials found without the network."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from goblin_core.errors import EngineUnavailable
from goblin_ocr_textract.credentials import find_credentials, find_region


def make_client(service: str, options: Mapping[str, Any]) -> Any:
    """A Textract or S3 client; EngineUnavailable when credentials or region are missing.

    botocore's own retries are off: goblin retries with backoff and jitter
    itself (``with_retries``) so attempts are counted once.
    """
    # boto3 is imported on first use: loading it costs every worker and every
    # goblin command seconds, and most runs never call Textract.
    import boto3
    from botocore.config import Config as BotoConfig

    profile = str(options["profile"])
    found = find_credentials(profile, options)
    if found.credentials is None and not options.get("use_default_credentials"):
        raise EngineUnavailable(f"no AWS credentials (looked in {found.looked_in})")
    region = find_region(str(options["region"]), profile)
    if not region:
        raise EngineUnavailable("no AWS region: set textract.region or AWS_REGION")
    endpoint = str(options["endpoint_url"])
    if service == "s3":
        endpoint = str(options["s3_endpoint_url"]) or endpoint
    settings = BotoConfig(
        region_name=region,
        retries={"total_max_attempts": 1},
        connect_timeout=float(options["timeout"]),
        read_timeout=float(options["timeout"]),
        s3={"addressing_style": "path"} if endpoint else None,
    )
    if found.credentials is None:
        # use_default_credentials: boto3's own chain (container, web identity, instance role)
        return boto3.session.Session().client(service, endpoint_url=endpoint or None,
                                              config=settings)
    frozen = found.credentials.get_frozen_credentials()
    return boto3.session.Session().client(
        service,
        endpoint_url=endpoint or None,
        aws_access_key_id=frozen.access_key,
        aws_secret_access_key=frozen.secret_key,
        aws_session_token=frozen.token,
        config=settings,
    )

"""AWS credentials from the environment and the shared files only.

goblin never asks the instance-metadata or container endpoints: finding out
whether Textract could run must not touch the network, and pages must not
leave the machine because a role happens to be attached to it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError

if TYPE_CHECKING:
    from botocore.credentials import Credentials


@dataclass(frozen=True)
class Found:
    """Credentials (None when there are none) and where they were looked for."""

    credentials: Credentials | None
    looked_in: str


def _shared_file(variable: str, default: str) -> str:
    return os.path.expanduser(os.environ.get(variable) or default)


def find_credentials(profile: str = "", given: Mapping[str, Any] | None = None) -> Found:
    """Credentials given in options, else AWS_* variables, then the shared files.

    ``given`` is the ``[textract]`` section (access_key_id, secret_access_key,
    session_token); ``profile`` defaults to $AWS_PROFILE, then "default".
    """
    if given and given.get("access_key_id") and given.get("secret_access_key"):
        from botocore.credentials import Credentials

        return Found(
            Credentials(str(given["access_key_id"]), str(given["secret_access_key"]),
                        str(given.get("session_token") or "") or None),
            "textract.access_key_id / textract.secret_access_key",
        )
    # botocore.credentials loads half of botocore; importing it here keeps
    # the cost off every goblin start that never asks about Textract.
    from botocore.credentials import ConfigProvider, EnvProvider, SharedCredentialProvider

    name = profile or os.environ.get("AWS_PROFILE") or "default"
    credentials_file = _shared_file("AWS_SHARED_CREDENTIALS_FILE", "~/.aws/credentials")
    config_file = _shared_file("AWS_CONFIG_FILE", "~/.aws/config")
    providers = [SharedCredentialProvider(credentials_file, name),
                 ConfigProvider(config_file, name)]
    if not profile:
        # An explicit profile wins over the environment, as in the AWS CLI.
        providers.insert(0, EnvProvider())
    looked_in = (f"AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profile {name!r} in "
                 f"{credentials_file} and {config_file}")
    for provider in providers:
        try:
            found = provider.load()
        except BotoCoreError:
            continue
        if found is not None:
            return Found(found, looked_in)
    return Found(None, looked_in)


def find_region(region: str = "", profile: str = "") -> str:
    """The region from config, AWS_REGION, AWS_DEFAULT_REGION or the profile; '' when none."""
    if region:
        return region
    for variable in ("AWS_REGION", "AWS_DEFAULT_REGION"):
        if os.environ.get(variable):
            return os.environ[variable]
    config_file = Path(_shared_file("AWS_CONFIG_FILE", "~/.aws/config"))
    if not config_file.is_file():
        return ""
    name = profile or os.environ.get("AWS_PROFILE") or "default"
    from botocore.configloader import load_config  # first use only: see find_credentials

    try:
        profiles = load_config(str(config_file)).get("profiles", {})
    except BotoCoreError:
        return ""
    return str(profiles.get(name, {}).get("region", ""))

"""The ``[textract]`` config namespace."""

from __future__ import annotations

from goblin_core.options import LONGEST_WAIT_SECONDS, Option

TEXTRACT_OPTIONS = (
    Option("region", "str", "",
           "AWS region of Textract (empty: AWS_REGION, AWS_DEFAULT_REGION or the profile's)."),
    Option("profile", "str", "",
           "Profile of the shared AWS files to take credentials from (empty: AWS_PROFILE or "
           "default)."),
    Option("access_key_id", "str", "",
           "AWS access key id given directly (empty: the environment or the shared files). "
           "Prefer a profile: keys in a config file are secrets in a file."),
    Option("secret_access_key", "str", "", "AWS secret access key given with access_key_id.",
           secret=True),
    Option("session_token", "str", "", "AWS session token for temporary credentials.",
           secret=True),
    Option("use_default_credentials", "bool", False,
           "When no keys are given, in the environment or in the shared files, let boto3 find "
           "credentials as the AWS SDKs do: a container or web-identity role, or the EC2 "
           "instance metadata endpoint (asked over the network when a page is read). Off by "
           "default, so pages never leave the machine because a role happens to be attached."),
    Option("endpoint_url", "str", "",
           "Textract endpoint (empty: AWS's); for tests and VPC endpoints."),
    Option("s3_endpoint_url", "str", "", "S3 endpoint (empty: endpoint_url when set, else AWS's)."),
    Option("s3_bucket", "str", "",
           "Bucket that whole PDFs are uploaded to for asynchronous text detection "
           "(empty: only page images are sent, one request per page)."),
    Option("async_min_pages", "int", 3,
           "With s3_bucket set, a PDF with at least this many pages needing OCR is read by one "
           "asynchronous job instead of one request per page.", minimum=1),
    Option("s3_prefix", "str", "goblin/", "Key prefix of the uploads; each is deleted after use."),
    Option("max_attempts", "int", 6,
           "Attempts per request when Textract throttles or fails transiently.", minimum=1),
    Option("backoff_initial", "float", 1.0,
           "First backoff in seconds; it doubles each retry, with full jitter.", minimum=0.0,
           maximum=LONGEST_WAIT_SECONDS),
    Option("backoff_max", "float", 30.0, "Longest backoff between two attempts, in seconds.",
           minimum=0.0, maximum=LONGEST_WAIT_SECONDS),
    Option("poll_interval", "float", 5.0,
           "First wait between two polls of an asynchronous job; it grows up to 30 s.",
           minimum=0.0, maximum=LONGEST_WAIT_SECONDS),
    Option("poll_timeout", "float", 1800.0,
           "Seconds an asynchronous job may take, reading its results included, before goblin "
           "gives up on it (never longer than limits.timeout).", minimum=1.0,
           maximum=LONGEST_WAIT_SECONDS),
    Option("max_image_bytes", "bytes", 10 * 1024**2,
           "Largest page image sent to DetectDocumentText; bigger ones are re-encoded and scaled.",
           minimum=64 * 1024),
    Option("max_image_side", "int", 10_000,
           "Longest side in pixels of a page image sent to Textract.", minimum=100),
    Option("timeout", "float", 60.0,
           "Seconds to wait for one HTTP response (never longer than limits.timeout).",
           minimum=1.0, maximum=LONGEST_WAIT_SECONDS),
    Option("max_response_bytes", "bytes", 32 * 1024**2,
           "Largest answer parsed from Textract; a longer one gives no text. A dense page's "
           "answer is a few MB, and parsing takes some twenty times the answer's size.",
           minimum=1024**2),
)

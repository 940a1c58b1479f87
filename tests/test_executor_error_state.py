"""Errors cross from a worker to the caller whole: class, text, file and every attribute."""

from __future__ import annotations

import pickle

from goblin_core.errors import GoblinError, UnreadableFile
from goblin_core.executors.error_state import ErrorState


class QuotaExceeded(GoblinError):
    """A plugin's error whose constructor takes more than a message."""

    kind = "QuotaExceeded"

    def __init__(self, service: str, used: int, *, file: str | None = None) -> None:
        self.service = service
        self.used = used
        super().__init__(f"{service} quota used up ({used} calls); try tomorrow", file=file)


def _across(error: GoblinError) -> GoblinError:
    return pickle.loads(pickle.dumps(ErrorState.of(error))).rebuild()


def test_an_error_with_its_own_constructor_comes_back_the_same() -> None:
    error = QuotaExceeded("ocr.cloud", 1000, file="scan.pdf")
    back = _across(error)
    assert type(back) is QuotaExceeded
    assert (str(back), back.args, vars(back)) == (str(error), error.args, vars(error))


def test_an_unreadable_file_is_still_an_os_error() -> None:
    back = _across(UnreadableFile("cannot read it: no such file", file="gone.pdf"))
    assert isinstance(back, OSError) and isinstance(back, UnreadableFile)
    assert (back.file, str(back)) == ("gone.pdf", "gone.pdf: cannot read it: no such file")


def test_an_attribute_that_cannot_be_pickled_is_left_out_not_fatal() -> None:
    error = GoblinError("a handle came along", file="a.txt")
    error.handle = lambda: None  # type: ignore[attr-defined]
    back = _across(error)
    assert (back.file, back.message) == ("a.txt", "a handle came along")
    assert not hasattr(back, "handle")

"""Image files as documents (``image.pillow``): each page is a frame, read by OCR.

A PNG, JPEG, GIF, BMP, WebP, JPEG 2000, HEIC/HEIF or AVIF is one page; a multi-page
TIFF has one page per frame. Pages carry no text (``glyphs=0, images=1``), so the core's auto
rule sends every one of them to OCR through ``render``. Animation frames of
GIF and WebP, and the pictures after the first in a multi-picture JPEG, are not pages:
only the first frame is read.
"""

from __future__ import annotations

import contextlib
import email.utils
import functools
import io
import logging
import re
import struct
import warnings
from collections.abc import Iterator
from datetime import datetime
from typing import IO, Any

from PIL import Image, ImageFile, PngImagePlugin, TiffImagePlugin, UnidentifiedImageError

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, BaseParsedDocument
from goblin_core.errors import CorruptDocument, FileTooLarge
from goblin_core.executors.page_ranges import parse_page_range
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_ocr_tesseract.flatten import flatten

log = logging.getLogger(__name__)

IMAGE_FORMATS = (
    "image/png",
    "image/jpeg",
    "image/tiff",
    "image/gif",
    "image/bmp",
    "image/x-portable-anymap",
    "image/webp",
    "image/jp2",
    "image/x-jp2-codestream",
    "image/heic",
    "image/heif",
    "image/avif",
)

_EXIF_DATE = re.compile(r"(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})")
_OFFSET = re.compile(r"[+-]\d{2}:\d{2}")

#: Formats whose frames are pages. Other formats' frames are animation, or, in a JPEG
#: that is a Multi-Picture Object (MPO: phones' HDR photos, with a gain map after the
#: picture; 3D cameras' stereo pairs), other pictures of the same scene, whose text as
#: more pages would repeat the first's.
_PAGED_FORMATS = frozenset({"TIFF"})


class ImageParser(BaseEngine):
    """Opens image files with Pillow; OCR backends read their pages."""

    name = "image.pillow"
    formats = IMAGE_FORMATS
    priority = 10

    def open(self, source: Source, config: Config) -> ImageDocument:
        """Open the image: FileTooLarge for a decompression bomb, CorruptDocument if unreadable."""
        if source.head(16)[4:8] == b"ftyp":
            _read_heif_with_pillow()
        return ImageDocument(source, int(config.limits["max_image_pixels"]),
                             max_frames=frames_worth_counting(config))


@functools.cache
def _read_heif_with_pillow() -> None:
    """Teach Pillow HEIC and HEIF (libheif, through pillow-heif) on the first such file:
    the import costs about 0.1 s, which a batch without one does not pay. Pillow reads
    AVIF itself."""
    from pillow_heif import register_heif_opener

    register_heif_opener()


def frames_worth_counting(config: Config) -> int:
    """Frames past which the core reads no page (0: no limit): one past the page limit
    (``goblin.max_pages``, else ``limits.max_pages``), counted from ``goblin.page_range``'s
    first page, so that the core sees the document is longer and says where it stopped."""
    page_limit = int(config.core["max_pages"]) or int(config.limits["max_pages"])
    if not page_limit:
        return 0
    page_range = parse_page_range(str(config.core.get("page_range", "")))
    skipped = page_range[0] - 1 if page_range else 0
    return skipped + page_limit + 1


class ImageDocument(BaseParsedDocument):
    """An open image file whose frames are pages.

    ``max_frames`` (0: all) stops the count of a paged format's frames: a TIFF's frames
    are found by walking its chain of directories, which Pillow does in time growing
    with the square of their number (200,000 tiny frames fit in 23 MB). A file with
    more frames has ``page_count`` None (not counted) and yields ``max_frames`` pages,
    past the core's page limit, which stops there with its MaxPages warning.
    """

    def __init__(self, source: Source, max_pixels: int, *, max_frames: int = 0) -> None:
        self.source = source
        self.max_pixels = max_pixels
        self._stream: IO[bytes] = source.open()
        try:
            self._image = _open(self._stream, source, max_pixels)
            # Counting frames and reading EXIF read past the header: a damaged
            # stream fails here, as a CorruptDocument.
            with _pillow_limit(max_pixels, source):
                frames, counted, damage, self.metadata, undecoded = _frames_and_metadata(
                    self._image, self._stream, source, max_frames)
            if undecoded:
                # Pillow keeps what it decoded of damaged pixels and says nothing the
                # next time: a fresh handle lets the page meet the damage and say so
                # (closing the old one would close the stream they share)
                self._image = _open(self._stream, source, max_pixels)
        except BaseException:
            self._stream.close()
            raise
        self._pages_found = frames if self._image.format in _PAGED_FORMATS else 1
        self.page_count = self._pages_found if counted or self._pages_found == 1 else None
        self.warnings: list[tuple[str, str]] = []
        if damage:
            # Truncated: the pages after the damage are known lost, so the document
            # was read in part (report.truncated, a loss for the CLI's exit status)
            self.warnings.append(("Truncated", damage))

    def pages(self) -> Iterator[PageContent]:
        for number in range(1, self._pages_found + 1):
            yield PageContent(number=number, text="", glyphs=0, images=1)

    def render(self, page: int, dpi: int) -> Image.Image:
        """Frame ``page`` (1-based) upright and flattened on white, as a new image.

        Grey sources come back as "L", colour ones as "RGB" (see ``flatten``:
        Tesseract reads coloured text better from the colour channels).
        ``dpi`` is ignored: an image has the resolution it was scanned at.
        """
        if not 1 <= page <= self._pages_found:
            raise IndexError(f"{self.source.display_name} has no page {page}")
        with _pillow_limit(self.max_pixels, self.source):
            self._image.seek(page - 1)
            _check_pixels(self._image, self.max_pixels, self.source)
            frame = self._upright_frame(page)
            resolution = self._image.info.get("dpi")
            if self._image.format not in _PAGED_FORMATS:
                # The open file keeps the pixels it decoded, a second full copy of the
                # page for as long as OCR reads it: a new handle on the stream, with only
                # the header read, replaces it (a TIFF frame gives way to the next).
                self._image = _open(self._stream, self.source, self.max_pixels)
        flat = flatten(frame)
        if flat is not frame:
            frame.close()
        if resolution:
            flat.info["dpi"] = resolution
        return flat

    def _upright_frame(self, page: int) -> Image.Image:
        """The current frame turned upright; of a file cut short or damaged, the part
        that decodes.

        A scan cut off in transfer, or with a damaged byte in its compressed data (a
        bad sector, a flipped bit), still holds its lines before the damage: Pillow
        refuses the whole frame, and read with the rest left blank it gives them to OCR.
        """
        try:
            return upright(self._image)
        except OSError as exc:
            refused = exc
        # Pillow gave up on the stream it read: start again on a fresh one
        self._image.close()
        self._stream.close()
        self._stream = self.source.open()
        self._image = _open(self._stream, self.source, self.max_pixels)
        self._image.seek(page - 1)
        try:
            with _decoding_truncated_images():
                frame = upright(self._image)
        except OSError:
            # libtiff decodes a TIFF's strips all or nothing, whatever Pillow's switch
            # says: read them one at a time, and the damaged ones stay blank
            strips = _strip_by_strip(self._image, self._stream)
            if strips is None:
                raise refused from None  # not a matter of damaged data (a missing decoder)
            turn = _turn_upright(self._image)
            frame = strips.transpose(turn) if turn is not None else strips
        if _one_colour(frame):
            # nothing decoded (JPEG 2000 decodes all or nothing): the page is not blank
            # but unreadable, and the refusal says why
            frame.close()
            raise refused from None
        damage = "cut short" if _truncated(refused) else f"damaged ({refused})"
        # Truncated: the lines in the blank part are lost, so the document was read in part
        self.warnings.append(("Truncated", f"page {page}: the image data is {damage}; "
                              "the part that decodes was read, the rest is blank"))
        return frame

    def close(self) -> None:
        self._image.close()
        self._stream.close()


#: EXIF's Orientation tag, and the turn or flip that sets each of its values upright
_ORIENTATION = 0x0112
_UPRIGHT = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
            4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
            6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
            8: Image.Transpose.ROTATE_90}
#: What Pillow raises on EXIF it cannot read
_EXIF_ERRORS = (OSError, SyntaxError, ValueError, TypeError, KeyError, struct.error)


def upright(image: Image.Image) -> Image.Image:
    """The current frame of ``image`` turned as its EXIF orientation says, as a new image;
    as stored when the orientation is missing, unreadable or not one of EXIF's eight.

    Pillow's ``exif_transpose`` also writes the EXIF out again without the orientation,
    and EXIF damaged in a way Pillow reads but cannot write (a number tag holding text)
    made that fail: the photo's page could not be drawn for OCR at all. The page needs
    the pixels, not the EXIF. A frame whose pixels do not decode raises OSError.
    """
    image.load()
    turn = _turn_upright(image)
    return image.transpose(turn) if turn is not None else image.copy()


def _turn_upright(image: Image.Image) -> Image.Transpose | None:
    """The turn or flip that sets ``image`` upright by its EXIF orientation; None for
    none, or when the orientation is unreadable."""
    try:
        orientation = image.getexif().get(_ORIENTATION)
    except _EXIF_ERRORS as exc:
        log.debug("EXIF orientation unreadable, the image is read as stored: %s", exc)
        return None
    return _UPRIGHT.get(orientation) if isinstance(orientation, int) else None


#: TIFF tags of a frame's strips: where each is, its bytes, rows in each; SubIFDs, which
#: a one-strip copy of the frame must not point to
_STRIP_OFFSETS, _STRIP_BYTE_COUNTS, _IMAGE_LENGTH, _ROWS_PER_STRIP, _SUB_IFDS = (
    273, 279, 257, 278, 330)


#: Strips decoded one at a time at most (about 5 ms each): a scan has hundreds; a frame
#: of a million one-row strips would take longer than reading it is worth.
_MOST_STRIPS = 10_000


def _strip_by_strip(image: Image.Image, stream: IO[bytes]) -> Image.Image | None:
    """The current frame of a TIFF of several strips, each strip decoded apart and a
    strip that does not decode left white; None for any other image, or when no strip
    decodes.

    Each strip of a TIFF is compressed on its own (LZW, Deflate, PackBits, G3/G4), so
    the strips before and after a damaged one still decode; libtiff, which Pillow
    decodes them with, refuses the whole frame for one.
    """
    if not isinstance(image, TiffImagePlugin.TiffImageFile):
        return None
    tags = image.tag_v2
    offsets, counts = tags.get(_STRIP_OFFSETS), tags.get(_STRIP_BYTE_COUNTS)
    rows = int(tags.get(_ROWS_PER_STRIP, image.height) or image.height)
    if (not isinstance(offsets, tuple) or not isinstance(counts, tuple)
            or not 2 <= len(offsets) <= _MOST_STRIPS or len(offsets) != len(counts)
            or rows < 1):
        return None
    try:
        page = Image.new(image.mode, image.size, "white")
    except ValueError:
        page = Image.new(image.mode, image.size)
    decoded = 0
    for index, (offset, count) in enumerate(zip(offsets, counts, strict=True)):
        top = index * rows
        if top >= image.height:
            break
        try:
            strip = _one_strip(image, stream, offset, count, min(rows, image.height - top))
        except _FRAME_ERRORS as exc:
            log.debug("strip %d of the frame does not decode: %s", index + 1, exc)
            continue
        page.paste(strip, (0, top))
        decoded += 1
    return page if decoded else None


def _one_strip(image: TiffImagePlugin.TiffImageFile, stream: IO[bytes], offset: int,
               count: int, rows: int) -> Image.Image:
    """One strip of ``image``'s current frame, decoded from a TIFF of its own: the
    frame's tags, its height the strip's, its one strip right after its directory."""
    stream.seek(offset)
    data = stream.read(count)
    tags = image.tag_v2
    header = tags._prefix + (b"\x2a\x00\x08\x00\x00\x00" if tags._prefix == b"II"
                             else b"\x00\x2a\x00\x00\x00\x08")
    directory = TiffImagePlugin.ImageFileDirectory_v2(header)
    for tag, value in tags.items():
        if tag not in (_STRIP_OFFSETS, _STRIP_BYTE_COUNTS, _SUB_IFDS) and tag in tags.tagtype:
            directory[tag] = value
            directory.tagtype[tag] = tags.tagtype[tag]
    directory[_IMAGE_LENGTH] = directory[_ROWS_PER_STRIP] = rows
    directory[_STRIP_BYTE_COUNTS] = len(data)
    # Pillow writes strip offsets counted from the end of the directory: the strip's
    # data comes right after it
    directory[_STRIP_OFFSETS] = 0
    strip = Image.open(io.BytesIO(header + directory.tobytes(8) + data))
    strip.load()
    return strip


def _one_colour(image: Image.Image) -> bool:
    """Whether every pixel of ``image`` has the same value."""
    extrema = image.getextrema()
    bands = extrema if isinstance(extrema[0], tuple) else (extrema,)
    return all(low == high for low, high in bands)


def _truncated(exc: OSError) -> bool:
    """Whether Pillow stopped because the image data ends early (and not for damage)."""
    return "truncated" in str(exc)


@contextlib.contextmanager
def _decoding_truncated_images() -> Iterator[None]:
    """Pillow's switch for decoding what there is of a cut file, on for the block only.

    The switch is process-wide: extraction holds goblin's process-wide lock meanwhile,
    and the block decodes one frame.
    """
    before = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = True
    try:
        yield
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = before


def _open(stream: IO[bytes], source: Source, max_pixels: int) -> Image.Image:
    with _pillow_limit(max_pixels, source):
        try:
            image = Image.open(stream)
        except UnidentifiedImageError as exc:
            raise CorruptDocument("Pillow cannot identify this image; the file may be damaged "
                                  "or not an image", file=source.display_name) from exc
        except (OSError, SyntaxError, ValueError) as exc:
            raise CorruptDocument(f"cannot read the image header ({exc}); the file may be damaged",
                                  file=source.display_name) from exc
    _check_pixels(image, max_pixels, source)
    return image


def _frames_and_metadata(image: Image.Image, stream: IO[bytes], source: Source,
                         max_frames: int) -> tuple[int, bool, str, dict[str, Any], bool]:
    """The frames found (at most ``max_frames`` of a paged format, 0: all), whether
    that is all of them, why the frames stop early ('' when they do not: see
    ``_frames_up_to``), the image's metadata, and whether reading it met pixels
    that do not decode (see ``_metadata``)."""
    try:
        if image.format in _PAGED_FORMATS:
            frames, counted, damage = _frames_up_to(image, stream, max_frames)
        else:
            frames, counted, damage = int(getattr(image, "n_frames", 1) or 1), True, ""
        return (frames, counted, damage, *_metadata(image, frames if counted else None))
    except _FRAME_ERRORS as exc:
        image.close()
        raise CorruptDocument(f"the image data is damaged ({exc})",
                              file=source.display_name) from exc


#: What Pillow raises on a frame whose directory is damaged (TypeError: a TIFF
#: directory cut before the image's width and height)
_FRAME_ERRORS = (OSError, SyntaxError, ValueError, EOFError, TypeError, KeyError)


def _frames_up_to(image: Image.Image, stream: IO[bytes], most: int) -> tuple[int, bool, str]:
    """Frames of ``image`` found by seeking one at a time, stopping at ``most`` (0: all);
    whether there are no more; and why they stop early, '' when they do not.

    A multi-page scan cut short in transfer, or damaged past its first pages, keeps the
    frames before the damage. A frame whose directory Pillow cannot read, or reads only
    in part, is where they stop: libtiff, which decodes most TIFFs, would decode the
    frame before it again in its place, giving its text as this page's. Pillow ends a
    directory chain that loops back.
    """
    found = 1
    try:
        while not most or found < most:
            try:
                with warnings.catch_warnings():
                    # Pillow warns of a directory cut short; the damage is reported below
                    warnings.simplefilter("ignore", UserWarning)
                    image.seek(found)
            except EOFError:
                return found, True, ""
            except _FRAME_ERRORS as exc:
                damage = f"the directory of frame {found + 1} is damaged ({exc})"
            else:
                damage = _tiff_frame_damage(image, stream, found + 1)
            if damage:
                kept = "frame 1 is" if found == 1 else f"frames 1 to {found:,} are"
                return found, True, f"{damage}: it and any frame after it are lost; {kept} read"
            found += 1
    finally:
        image.seek(0)
    return found, False, ""


#: TIFF tags that locate a frame's pixels: StripOffsets, TileOffsets
_PIXEL_OFFSETS = (273, 324)


def _tiff_frame_damage(image: Image.Image, stream: IO[bytes], frame: int) -> str:
    """Why the TIFF frame ``image`` is on (numbered ``frame``) cannot be decoded as itself;
    '' when its directory is whole, or the image is not a TIFF.

    Pillow reads what there is of a directory cut short and warns; libtiff refuses it
    and decodes the frame it read before. So the directory's entries must lie within
    the file, and the tags that locate its pixels be among them.
    """
    if not isinstance(image, TiffImagePlugin.TiffImageFile):
        return ""
    offset = image.tag_v2.offset
    at = stream.tell()
    try:
        stream.seek(0)
        header = stream.read(4)
        size = stream.seek(0, 2)
        big = header[2:4] in (b"\x00+", b"+\x00")  # BigTIFF's 43, either byte order
        order = "<" if header[:2] == b"II" else ">"
        count_size, entry_size, link_size = (8, 20, 8) if big else (2, 12, 4)
        stream.seek(offset or 0)
        count_bytes = stream.read(count_size)
    finally:
        stream.seek(at)
    if offset is None or len(count_bytes) < count_size:
        return f"the directory of frame {frame} is cut short"
    (entries,) = struct.unpack(order + ("Q" if big else "H"), count_bytes)
    end = offset + count_size + entries * entry_size + link_size
    if end > size:
        return (f"the directory of frame {frame} runs past the end of the file (to byte "
                f"{end:,} of {size:,}; the file is cut short or damaged)")
    if not any(tag in image.tag_v2 for tag in _PIXEL_OFFSETS):
        return f"the directory of frame {frame} does not say where its pixels are"
    return ""


#: Pillow keeps a pointer (8 bytes) per row besides its pixels: a 1 x 100,000,000 image
#: takes 900 MB a copy, not 100 MB, so rows narrower than this count as this wide.
_ROW_COST_PIXELS = 8


def _check_pixels(image: Image.Image, max_pixels: int, source: Source) -> None:
    pixels = max(image.width, _ROW_COST_PIXELS) * image.height
    if pixels > max_pixels:
        raise FileTooLarge(
            f"image of {image.width}x{image.height}, {pixels:,} pixels counting a row as at "
            f"least {_ROW_COST_PIXELS} wide, is over "
            f"limits.max_image_pixels ({max_pixels:,}); it may be a decompression bomb. "
            "Raise the limit only for images you trust",
            file=source.display_name,
        )


class _pillow_limit:
    """Leave the decompression-bomb limit to limits.max_image_pixels.

    Pillow warns past ``Image.MAX_IMAGE_PIXELS`` (a process-wide value, 89 million
    pixels by default) and refuses past twice that. The warning is ignored: goblin's
    own limit is checked on every frame before its pixels are decoded, and a warning
    turned into an error made the default limit (179 million) half of what it says
    and raising it useless. Pillow's refusal still applies, as FileTooLarge.

    Pillow's other warnings on a damaged file ("Corrupt EXIF data", "Truncated File
    Read") go to the log at debug level: printed, they reached the user's terminal
    as lines of Pillow's source, where what the damage costs is said in goblin's own
    warnings, or not at all when it costs nothing of the page.

    A PNG's compressed text chunk may hold up to the 64 MB Pillow allows the text of
    one image in all (``MAX_TEXT_MEMORY``), not 1 MB a chunk (``MAX_TEXT_CHUNK``):
    past that, Pillow refused the whole image, pixels and all, as "Decompressed data
    too large", and ImageMagick writes a photo's EXIF or XMP profile into such a chunk
    in hex, twice its size. The memory a PNG's text may take stays bounded. Both
    values are process-wide, like the warning filters: extraction holds goblin's
    process-wide lock meanwhile.
    """

    def __init__(self, max_pixels: int, source: Source) -> None:
        self.max_pixels = max_pixels
        self.source = source
        self._catcher = warnings.catch_warnings(record=True)
        self._said: list[warnings.WarningMessage] = []
        self._text_chunk = PngImagePlugin.MAX_TEXT_CHUNK

    def __enter__(self) -> None:
        said = self._catcher.__enter__()
        self._said = said if said is not None else []
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        self._text_chunk = PngImagePlugin.MAX_TEXT_CHUNK
        PngImagePlugin.MAX_TEXT_CHUNK = max(self._text_chunk, PngImagePlugin.MAX_TEXT_MEMORY)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: Any) -> None:
        PngImagePlugin.MAX_TEXT_CHUNK = self._text_chunk
        self._catcher.__exit__(kind, exc, tb)
        for said in self._said:
            log.debug("Pillow on %s: %s", self.source.display_name, said.message)
        if not isinstance(exc, (Image.DecompressionBombError, Image.DecompressionBombWarning)):
            return
        pillow_refuses_past = 2 * (Image.MAX_IMAGE_PIXELS or 0)
        if self.max_pixels <= pillow_refuses_past:
            # the image is over goblin's own limit as well: that is the one to name
            raise FileTooLarge(
                f"the image is over limits.max_image_pixels ({self.max_pixels:,}); it may be "
                f"a decompression bomb ({exc}). Raise the limit only for images you trust, "
                f"and past {pillow_refuses_past:,} pixels Pillow's Image.MAX_IMAGE_PIXELS "
                "too", file=self.source.display_name) from exc
        raise FileTooLarge(
            f"Pillow refused the image as a possible decompression bomb ({exc}); "
            "past limits.max_image_pixels, Pillow's own Image.MAX_IMAGE_PIXELS must be "
            "raised as well, only for images you trust",
            file=self.source.display_name,
        ) from exc


def _metadata(image: Image.Image, frames: int | None) -> tuple[dict[str, Any], bool]:
    """Format, size, mode, frames (when all were counted), resolution and EXIF fields;
    and whether the pixels, which Pillow decodes to find a PNG's EXIF, did not decode."""
    data: dict[str, Any] = {
        "format": image.format or "",
        "width": image.width,
        "height": image.height,
        "mode": image.mode,
    }
    if frames is not None:
        data["frames"] = frames
    dpi = image.info.get("dpi")
    if dpi:
        data["dpi"] = [round(float(v), 2) for v in dpi]
    try:
        exif = image.getexif()
    except OSError as exc:
        # a PNG's EXIF may follow its pixels, which a file cut short or damaged does not
        # let Pillow reach; the pages say what they can of it when rendered
        log.debug("no EXIF read past damaged image data: %s", exc)
        return data, True
    data.update(_exif_fields(exif))
    for chunk, key in (("Title", "title"), ("Author", "author"), ("Description", "subject"),
                       ("Software", "creator"), ("Creation Time", "created")):
        value = _text(image.info.get(chunk))  # a PNG's text chunks
        if value and key not in data:
            data[key] = _png_time(value) if key == "created" else value
    return data, False


#: EXIF tags read: IFD0's, then the Exif IFD's (where cameras put the capture time)
_EXIF_TEXT = ((0x010E, "title"), (0x013B, "author"), (0x8298, "copyright"),
              (0x0131, "creator"), (0x010F, "make"), (0x0110, "model"))
_EXIF_IFD = 0x8769
_DATE_TIME, _ORIGINAL, _DIGITIZED = 0x0132, 0x9003, 0x9004
_OFFSET_OF = {_DATE_TIME: 0x9010, _ORIGINAL: 0x9011, _DIGITIZED: 0x9012}
_MAX_VALUE_CHARS = 65_536


def _exif_fields(exif: Image.Exif) -> dict[str, str]:
    """Title, author, copyright, creator (the software), camera make and model, and the
    dates: ``created`` when the picture was taken (or, without that, last changed),
    ``modified`` when it was last changed, both in ISO 8601."""
    fields = {key: value for tag, key in _EXIF_TEXT if (value := _text(exif.get(tag)))}
    try:
        detail = exif.get_ifd(_EXIF_IFD)
    except (OSError, ValueError, SyntaxError, KeyError, TypeError):
        detail = {}  # a damaged Exif IFD costs only its own fields

    def stamp(tag: int, tags: Any) -> str | None:
        value = _text(tags.get(tag))
        offset = _text(detail.get(_OFFSET_OF[tag]))
        return exif_date(value, offset) if value else None

    changed = stamp(_DATE_TIME, exif)
    created = stamp(_ORIGINAL, detail) or stamp(_DIGITIZED, detail) or changed
    if created:
        fields["created"] = created
    if changed:
        fields["modified"] = changed
    return fields


def _text(value: Any) -> str:
    """A tag's or chunk's value as clean text ('' for none, bytes, or too long)."""
    if not isinstance(value, str):
        return ""
    text = " ".join(value.replace("\x00", " ").split())
    return text if len(text) <= _MAX_VALUE_CHARS else ""


def _png_time(value: str) -> str:
    """A PNG's free-form "Creation Time" in ISO 8601 when it is an EXIF or an RFC 1123
    date (as the PNG specification suggests), else as written."""
    found = exif_date(value)
    if found:
        return found
    try:
        return email.utils.parsedate_to_datetime(value).isoformat()
    except (TypeError, ValueError, IndexError):
        return value


def exif_date(value: str, offset: str = "") -> str | None:
    """An EXIF date (``2024:05:06 07:08:09``, its time zone apart in ``offset``) in
    ISO 8601; None for a blank or impossible one (``0000:00:00 00:00:00``).

    >>> exif_date("2024:05:06 07:08:09", "+01:00")
    '2024-05-06T07:08:09+01:00'
    >>> exif_date("2024:05:06 07:08:09")
    '2024-05-06T07:08:09'
    >>> exif_date("0000:00:00 00:00:00") is None
    True
    """
    match = _EXIF_DATE.fullmatch(value.strip())
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(part) for part in match.groups())
    try:
        moment = datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None
    zone = offset.strip() if _OFFSET.fullmatch(offset.strip()) else ""
    return moment.isoformat() + zone

"""goblin-example-note: a minimal third-party goblin plugin for GOBLIN-NOTE v1 files."""

from goblin_example_note.note import NOTE_MIME, NoteParser, NoteSniffer, render_note

__all__ = ["NOTE_MIME", "NoteParser", "NoteSniffer", "render_note"]

import sys
from pathlib import Path

# The tests import their small helper modules (corpus_runs, pdf_builders) by name.
sys.path.insert(0, str(Path(__file__).resolve().parent))

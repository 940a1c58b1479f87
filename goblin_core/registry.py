"""The plugin manager: loads plugins, collects their engines, ranks them.

pluggy only collects: it calls hook implementations in reverse registration
order and one exception aborts a whole hook call. So goblin calls each
plugin's implementation on its own, marks a plugin that fails as broken (with
its error) without losing the others, and does its own ranking.
"""

from __future__ import annotations

import functools
import importlib.metadata as importlib_metadata
import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pluggy

from goblin_core import hookspecs
from goblin_core.config import (
    CORE_NAMESPACES,
    ENGINES_KEY,
    Config,
    build_config,
    config_file,
    read_config_file,
)
from goblin_core.engines import ENGINE_KINDS, accepts
from goblin_core.options import Namespace, Option, make_namespace

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "goblin"
LOAD_ENV = "GOBLIN_LOAD_PLUGINS"
DISABLE_ENV = "GOBLIN_DISABLE_PLUGINS"
BUILTIN_PLUGIN = "goblin-core"

HOOK_KINDS: Mapping[str, str] = {
    "goblin_register_sniffers": "sniffer",
    "goblin_register_parsers": "parser",
    "goblin_register_validators": "validator",
    "goblin_register_recovery_engines": "recovery",
    "goblin_register_ocr_backends": "ocr",
    "goblin_register_archive_handlers": "archive",
    "goblin_register_table_engines": "table",
    "goblin_register_executors": "executor",
    "goblin_register_renderers": "renderer",
}


@dataclass
class PluginInfo:
    """A plugin as ``goblin plugins`` shows it."""

    name: str
    distribution: str
    version: str
    status: str = "loaded"  # loaded | broken | blocked
    error: str = ""
    hooks: list[str] = field(default_factory=list)
    engines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class EngineEntry:
    """A registered engine with its kind and the plugin that registered it."""

    engine: Any
    kind: str
    plugin: str
    distribution: str
    version: str

    @property
    def name(self) -> str:
        return str(self.engine.name)

    @property
    def formats(self) -> tuple[str, ...]:
        formats = getattr(self.engine, "formats", ("*",))
        if isinstance(formats, str):  # one MIME type, not its letters
            return (formats,)
        try:
            return tuple(f for f in formats if isinstance(f, str))
        except TypeError:
            return ()

    @property
    def priority(self) -> int:
        """The engine's priority; one that is no int (a malformed engine, which is
        unavailable anyway) counts as 0, so listings and rankings never fail on it."""
        priority = getattr(self.engine, "priority", 0)
        return priority if isinstance(priority, int) and not isinstance(priority, bool) else 0

    @property
    def provenance(self) -> str:
        """``distribution==version``, as attempts record it."""
        return f"{self.distribution}=={self.version}" if self.version else self.distribution


class Registry:
    """Every engine of every loaded plugin, and the declared config namespaces."""

    def __init__(
        self,
        plugins: Sequence[PluginInfo],
        entries: Sequence[EngineEntry],
        namespaces: Mapping[str, Namespace],
    ) -> None:
        self.plugins = list(plugins)
        self.entries = list(entries)
        self.namespaces = dict(namespaces)
        self._by_name = {e.name: e for e in self.entries}
        self._availability: dict[str, tuple[bool, str]] = {}
        # (kind, mime, id(config), with_unavailable) -> (that config, the ranking). The
        # config is kept with its ranking, so its id cannot be reused while cached.
        self._rankings: dict[tuple[str, str | None, int, bool],
                             tuple[Config | None, list[EngineEntry]]] = {}

    def engines(self, kind: str | None = None) -> list[EngineEntry]:
        """Every registered engine of a kind (all kinds when None), by name."""
        chosen = [e for e in self.entries if kind is None or e.kind == kind]
        return sorted(chosen, key=lambda e: (e.kind, e.name))

    def get(self, name: str) -> EngineEntry | None:
        return self._by_name.get(name)

    def availability(self, entry: EngineEntry) -> tuple[bool, str]:
        """``available()`` of an engine, asked once; an exception counts as unavailable."""
        if entry.name not in self._availability:
            problem = _engine_problem(entry.engine)
            if problem is not None:  # malformed: shown with why, never run
                self._availability[entry.name] = (False, problem)
                return self._availability[entry.name]
            try:
                answer = entry.engine.available()
            except Exception as exc:  # a plugin's bug must not crash the core
                answer = (False, f"available() raised {type(exc).__name__}: {exc}")
            self._availability[entry.name] = _availability_answer(answer)
        return self._availability[entry.name]

    def ranked(
        self,
        kind: str,
        mime: str | None = None,
        config: Config | None = None,
        *,
        with_unavailable: bool = False,
    ) -> list[EngineEntry]:
        """Engines of ``kind`` that take ``mime``, enabled and available, best first.

        Higher priority first (config overrides an engine's priority), ties by name.
        Rankings are cached per config object: every document of a batch asks the same
        questions, and availability is asked once anyway.
        """
        memo = (kind, mime, id(config), with_unavailable)
        cached = self._rankings.get(memo)
        if cached is not None and cached[0] is config:
            return list(cached[1])
        ranking = self._rank(kind, mime, config, with_unavailable)
        if len(self._rankings) >= _MAX_RANKINGS:
            self._rankings.clear()
        self._rankings[memo] = (config, ranking)
        return list(ranking)

    def _rank(
        self, kind: str, mime: str | None, config: Config | None, with_unavailable: bool
    ) -> list[EngineEntry]:
        chosen = []
        for entry in self.entries:
            if entry.kind != kind:
                continue
            if mime is not None and not accepts(entry.formats, mime):
                continue
            if config is not None and config.engine_enabled(entry.name) is False:
                continue
            if not with_unavailable and not self.availability(entry)[0]:
                continue
            chosen.append(entry)

        def key(entry: EngineEntry) -> tuple[int, str]:
            priority = entry.priority
            if config is not None:
                priority = config.engine_priority(entry.name, priority)
            return (-priority, entry.name)

        return sorted(chosen, key=key)

    def disabled(self, kinds: Iterable[str], mime: str, config: Config) -> list[EngineEntry]:
        """Engines of ``kinds`` that take ``mime`` but that ``config`` disables, by name."""
        return sorted(
            (e for e in self.entries
             if e.kind in kinds and accepts(e.formats, mime)
             and config.engine_enabled(e.name) is False),
            key=lambda e: e.name,
        )

    def claimed_formats(self, kinds: Iterable[str] = ("parser", "archive")) -> dict[str, list[str]]:
        """MIME type -> engine names of the given kinds that claim it."""
        table: dict[str, list[str]] = {}
        for entry in self.entries:
            if entry.kind in kinds:
                for fmt in entry.formats:
                    table.setdefault(fmt, []).append(entry.name)
        return table

    def config(
        self, path: str | os.PathLike[str] | Mapping[str, Any] | None = None, **options: Any
    ) -> Config:
        """Effective config: defaults, then the file (or $GOBLIN_CONFIG), then ``options``.

        ``path`` may also be the file's content as a mapping (``{"pdf": {"password": "x"}}``).
        """
        if isinstance(path, Mapping):
            return build_config(self.namespaces, dict(path), options, file=None,
                                engine_names=self._by_name)
        chosen = config_file(path)
        data = read_config_file(chosen) if chosen else {}
        return build_config(
            self.namespaces, data, options, file=chosen, engine_names=self._by_name
        )


#: Rankings kept per registry before the cache starts over (configs x kinds x MIME types).
_MAX_RANKINGS = 1024


def _availability_answer(answer: Any) -> tuple[bool, str]:
    """``available()``'s answer as (ok, reason). A bare bool is read as it says (an
    easy slip that must not hide a working engine); anything else is unavailable."""
    if isinstance(answer, bool):
        return answer, "" if answer else "available() said no without a reason"
    if isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[0], bool):
        return answer[0], str(answer[1] or "")
    return False, f"available() returned {answer!r}, not (bool, reason)"


def _env_list(name: str) -> list[str] | None:
    value = os.environ.get(name)
    if value is None:
        return None
    return [v.strip() for v in value.split(",") if v.strip()]


class _Loader:
    """Builds a Registry: one instance per load, no state kept afterwards."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
        self.pm.add_hookspecs(hookspecs)
        self.plugins: dict[str, PluginInfo] = {}

    def add(self, name: str, obj: Any, distribution: str, version: str) -> None:
        info = PluginInfo(name=name, distribution=distribution, version=version)
        self.plugins[name] = info
        try:
            self.pm.register(obj, name=name)
            self.pm.check_pending()
        except Exception as exc:  # a broken plugin is reported, never fatal
            self._break(name, f"cannot register: {type(exc).__name__}: {exc}")
            return
        info.hooks = sorted(
            impl_hook
            for impl_hook in (*HOOK_KINDS, "goblin_register_options")
            if any(i.plugin_name == name for i in getattr(self.pm.hook, impl_hook).get_hookimpls())
        )

    def _break(self, name: str, error: str) -> None:
        info = self.plugins[name]
        info.status, info.error = "broken", error
        log.warning("goblin plugin %s is broken: %s", name, error)
        if self.pm.get_plugin(name) is not None:
            self.pm.unregister(name=name)

    def collect(self) -> Registry:
        entries = self._collect_engines()
        namespaces = self._collect_options()
        # A plugin broken while declaring its options contributes nothing at all.
        entries = [e for e in entries if self.plugins[e.plugin].status == "loaded"]
        for entry in entries:
            self.plugins[entry.plugin].engines.append(entry.name)
        return Registry(list(self.plugins.values()), entries, namespaces)

    def _collect_engines(self) -> list[EngineEntry]:
        per_plugin: dict[str, list[EngineEntry]] = {}
        order: list[str] = []
        for hook_name, kind in HOOK_KINDS.items():
            for impl in getattr(self.pm.hook, hook_name).get_hookimpls():
                name = impl.plugin_name
                if self.plugins[name].status != "loaded":
                    continue
                info = self.plugins[name]
                collected = per_plugin.setdefault(name, [])
                if name not in order:
                    order.append(name)
                refused: list[str] = []

                def register(
                    engine: Any,
                    _kind: str = kind,
                    _info: PluginInfo = info,
                    _into: list[EngineEntry] = collected,
                    _refused: list[str] = refused,
                ) -> None:
                    problem = _registration_problem(engine)
                    if problem is None and any(e.name == engine.name for e in _into):
                        problem = f"engine name {engine.name!r} is registered twice"
                    if problem is not None:
                        # Kept even when the hook swallows the exception: the plugin
                        # is broken either way, never half registered.
                        _refused.append(problem)
                        raise TypeError(problem)
                    _into.append(
                        EngineEntry(engine, _kind, _info.name, _info.distribution, _info.version)
                    )

                try:
                    impl.function(register=register)
                except Exception as exc:  # isolate the failing plugin only
                    self._break(name, f"{hook_name} failed: {type(exc).__name__}: {exc}")
                else:
                    if refused:
                        self._break(name, f"{hook_name} failed: {refused[0]}")
        taken: dict[str, str] = {}
        entries: list[EngineEntry] = []
        for name in sorted(order, key=self._registration_index):
            if self.plugins[name].status != "loaded":
                continue
            clash = next((e.name for e in per_plugin[name] if e.name in taken), None)
            if clash is not None:
                self._break(name, f"engine name {clash!r} is already registered by {taken[clash]}")
                continue
            for entry in per_plugin[name]:
                taken[entry.name] = name
                entries.append(entry)
        return entries

    def _registration_index(self, name: str) -> tuple[int, int]:
        # The built-in plugin is registered last (pluggy calls it last), but its
        # engine names are claimed first: a third-party engine reusing one must
        # break that plugin, never goblin-core's own sniffer, options and renderers.
        return (0 if name == BUILTIN_PLUGIN else 1, list(self.plugins).index(name))

    def _collect_options(self) -> dict[str, Namespace]:
        namespaces: dict[str, Namespace] = {}
        # goblin-core declares first: its [goblin] and [limits] are never another's.
        impls = sorted(self.pm.hook.goblin_register_options.get_hookimpls(),
                       key=lambda i: self._registration_index(i.plugin_name))
        for impl in impls:
            plugin = impl.plugin_name
            if self.plugins[plugin].status != "loaded":
                continue
            declared: dict[str, Namespace] = {}

            def register(
                namespace: str,
                options: Sequence[Option],
                extra: str | None = None,
                help: str = "",
                _plugin: str = plugin,
                _into: dict[str, Namespace] = declared,
            ) -> None:
                _into[namespace] = _namespace(namespace, options, extra, help, _plugin,
                                              namespaces)

            try:
                impl.function(register=register)
            except Exception as exc:
                self._break(plugin, f"goblin_register_options failed: {type(exc).__name__}: {exc}")
                continue
            namespaces.update(declared)
        return namespaces


def _namespace(name: Any, options: Any, extra: Any, help: Any, plugin: str,
               declared: Mapping[str, Namespace]) -> Namespace:
    """One declared namespace, checked: a plugin's mistake here breaks only that plugin."""
    if not isinstance(name, str) or not name or "." in name:
        raise ValueError(f"config namespace {name!r} must be a non-empty name without dots")
    if plugin != BUILTIN_PLUGIN and name in (*CORE_NAMESPACES, ENGINES_KEY):
        raise ValueError(f"config namespace [{name}] belongs to goblin-core")
    if name in declared and declared[name].plugin != plugin:
        raise ValueError(
            f"config namespace [{name}] is already declared by {declared[name].plugin}"
        )
    if isinstance(options, (str, bytes)) or not isinstance(options, Sequence):
        raise TypeError(f"[{name}]: options must be a sequence of Option, got {options!r}")
    for option in options:
        if not isinstance(option, Option):
            raise TypeError(f"[{name}]: {option!r} is not a goblin_core.Option")
    if extra is not None and not isinstance(extra, str):
        raise TypeError(f"[{name}]: extra must be a string or None, got {extra!r}")
    return make_namespace(name, options, extra=extra, help=str(help or ""), plugin=plugin)


def _registration_problem(engine: Any) -> str | None:
    """Why ``engine`` cannot be registered at all (no name to know it by, nothing to
    ask whether it can run), or None."""
    name = getattr(engine, "name", None)
    if not isinstance(name, str) or not name:
        return f"engine {engine!r} has no name"
    if not callable(getattr(engine, "available", None)):
        return f"engine {name!r} has no available() method"
    return None


def _engine_problem(engine: Any) -> str | None:
    """What makes a registered engine unfit to run, or None when it is fit.

    Such an engine stays listed (so ``goblin plugins`` and the conformance kit show
    it) but counts as unavailable with this reason: rankings never meet it.
    """
    name = getattr(engine, "name", "")
    formats = getattr(engine, "formats", ("*",))
    if (
        isinstance(formats, (str, bytes))
        or not isinstance(formats, (tuple, list, frozenset, set))
        or not formats
        or not all(isinstance(f, str) and f for f in formats)
    ):
        return f"engine {name!r}: formats must be a non-empty tuple of MIME types, got {formats!r}"
    priority = getattr(engine, "priority", 0)
    if isinstance(priority, bool) or not isinstance(priority, int):
        return f"engine {name!r}: priority must be an int, got {priority!r}"
    return None


def load_registry(
    *,
    load: Sequence[str] | None = None,
    disable: Sequence[str] = (),
    extra_plugins: Sequence[tuple[str, Any]] = (),
    entry_points: Callable[[], Iterable[importlib_metadata.EntryPoint]] | None = None,
) -> Registry:
    """Load installed plugins (entry-point group ``goblin``) plus the built-in one.

    ``load`` limits loading to those entry-point names (empty: none);
    ``disable`` blocks names; both default to $GOBLIN_LOAD_PLUGINS and
    $GOBLIN_DISABLE_PLUGINS. ``extra_plugins`` are (name, object) pairs
    registered after the entry points, as tests do.
    """
    from goblin_core.builtin import plugin as builtin_plugin

    if load is None:
        load = _env_list(LOAD_ENV)
    blocked = set(disable) | set(_env_list(DISABLE_ENV) or [])
    loader = _Loader()
    found = (
        entry_points() if entry_points else importlib_metadata.entry_points(group=ENTRY_POINT_GROUP)
    )
    for ep in sorted(found, key=lambda e: e.name):
        dist = ep.dist.name if ep.dist else ep.value.split(":")[0]
        version = ep.dist.version if ep.dist else ""
        if (load is not None and ep.name not in load) or ep.name in blocked:
            loader.plugins[ep.name] = PluginInfo(ep.name, dist, version, status="blocked")
            continue
        try:
            obj = ep.load()
        except Exception as exc:  # an import error marks only this plugin broken
            loader.plugins[ep.name] = PluginInfo(
                ep.name,
                dist,
                version,
                status="broken",
                error=f"cannot import {ep.value}: {type(exc).__name__}: {exc}",
            )
            log.warning("goblin plugin %s is broken: %s", ep.name, exc)
            continue
        loader.add(ep.name, obj, dist, version)
    for name, obj in extra_plugins:
        loader.add(name, obj, name, "")
    loader.add(BUILTIN_PLUGIN, builtin_plugin, "goblin-core", _core_version())
    return loader.collect()


def _core_version() -> str:
    try:
        return importlib_metadata.version("goblin-core")
    except importlib_metadata.PackageNotFoundError:
        return "0+unknown"


@functools.lru_cache(maxsize=8)
def _cached_registry(load_env: str | None, disable_env: str | None) -> Registry:
    return load_registry()


def default_registry() -> Registry:
    """The registry of this process's installed plugins, loaded once per environment."""
    return _cached_registry(os.environ.get(LOAD_ENV), os.environ.get(DISABLE_ENV))


def clear_registry_cache() -> None:
    """Forget loaded registries (tests that install or toggle plugins call this)."""
    _cached_registry.cache_clear()


ENGINE_KIND_NAMES = ENGINE_KINDS

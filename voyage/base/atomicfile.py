"""Files the referee names (an export, a journal, a card, a map picture, the house tables),
written whole or not at all.

Each file is written under a hidden temporary name in its own folder
(``.NAME.PID-XXXXXXXX.part``), synced to the disk, and only then put in place with one
rename, as the campaign file is made (voyage.store.campaignfile.build_atomically). A Ctrl-C, a
kill or a full disk at any moment leaves the old file as it was (or no file) and never a
half-written one; the temporary file is removed on any failure, and one left by a killed
process is removed by the next write to the same name.

Several files are one :class:`FileBatch`: every one is written to its temporary name
first and they are put in place together at the end, so a failure half-way writes none of
them (an interrupted ``voyage export -f png -f md`` leaves nothing to --force next time).

Without ``force`` nothing is overwritten, even a file that appeared after the command
checked (it is put in place with a hard link, which fails on an existing name). What is
not a regular file (``/dev/null``, a pipe) is written directly: it cannot be replaced.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType

from voyage.base import stopsignals

PART_SUFFIX = ".part"


def clear_stale_parts(target: Path) -> None:
    """Remove the temporary files a killed process left for ``target``."""
    clear_stale(target, PART_SUFFIX)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def clear_stale(path: Path, suffix: str) -> None:
    """Remove the temporary files a killed process left for ``path``: those named
    ``.NAME.PID…SUFFIX…`` (a ``voyage init`` build and its journals, an output file's
    part) whose process is gone."""
    prefix = f".{path.name}."
    try:
        entries = list(path.parent.iterdir())
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if not name.startswith(prefix) or suffix not in name[len(prefix) :]:
            continue
        pid = name[len(prefix) :].split(suffix)[0].split("-")[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _pid_alive(int(pid)):
            with contextlib.suppress(OSError):
                entry.unlink(missing_ok=True)


def fsync(path: Path, directory: bool = False) -> None:
    """Sync ``path`` (or a folder) to the disk; a file system that cannot is let be."""
    try:
        fd = os.open(path, os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if directory else 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def real_target(path: str | os.PathLike[str]) -> Path:
    """Where writing ``path`` lands: a symbolic link is followed (the link is kept)."""
    target = Path(path)
    return Path(os.path.realpath(target)) if target.is_symlink() else target


class FileBatch:
    """Files written under temporary names, put in place together by :meth:`commit`.

    ``with FileBatch(force=...) as batch: temp = batch.add(path); <write temp>``: on leaving
    the block normally the files are put in place; on any exception (Ctrl-C too) every
    temporary file is removed and nothing is put in place.
    """

    def __init__(self, *, force: bool = True) -> None:
        self.force = force
        self._staged: list[tuple[Path, Path]] = []  # (temporary file, target)
        self.written: list[Path] = []  # the targets put in place so far by commit()
        self.failed: Path | None = None  # the target commit() could not put in place
        #: where each file added is, until it is put in place: its absolute path -> the
        #: temporary file (a page embedding a picture of the same batch reads it there)
        self.where: dict[Path, Path] = {}

    def add(self, path: str | os.PathLike[str]) -> Path:
        """A new empty temporary file to write ``path``'s contents into (its name is
        hidden, in ``path``'s folder; an existing file's permissions are kept)."""
        target = real_target(path)
        try:
            mode = target.stat().st_mode
        except OSError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            return target  # a device or a pipe: written directly, nothing to replace
        clear_stale_parts(target)
        temp = target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}{PART_SUFFIX}")
        # staged before it exists: an interrupt (Ctrl-C, SIGTERM) the moment after it is
        # made must find it to remove it
        self._staged.append((temp, target))
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # umask applies
        except OSError:
            self._staged.remove((temp, target))  # not made (or not ours): not to remove
            raise
        try:
            if mode is not None:
                os.chmod(fd, stat.S_IMODE(mode))
        except OSError:
            pass
        finally:
            os.close(fd)
        self.where[Path(os.path.abspath(path))] = temp
        return temp

    def commit(self) -> list[Path]:
        """Put every file in place (synced first); the targets written. On a failure the
        files not yet in place are removed (``written`` says which are) and it is raised
        with the target's name."""
        staged, self._staged = self._staged, []
        self.where = {}
        folders: dict[Path, None] = {}
        try:
            for temp, target in staged:  # synced first: an interrupt here places nothing
                if temp != target:
                    self.failed = target
                    fsync(temp)
            self.failed = None
            with stopsignals.held():  # renames: a Ctrl-C or SIGTERM waits till all are in
                for temp, target in staged:
                    if temp == target:
                        self.written.append(target)
                        continue
                    self.failed = target
                    self._place(temp, target)
                    folders[target.parent] = None
                    self.written.append(target)
                    self.failed = None
                for folder in folders:
                    fsync(folder, directory=True)
        except BaseException:
            for temp, target in staged:
                if temp != target:
                    _unlink(temp)
            raise
        return list(self.written)

    def _place(self, temp: Path, target: Path) -> None:
        if self.force:
            os.replace(temp, target)
            return
        try:
            os.link(temp, target)  # fails on an existing name: nothing is overwritten
        except FileExistsError:
            raise _appeared(target) from None
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                raise
            # a file system without hard links: rename, having checked the name is free
            if os.path.lexists(target):
                raise _appeared(target) from None
            os.replace(temp, target)
        _unlink(temp)

    def write_texts(
        self,
        texts: Mapping[Path, str],
        fail: Callable[[str], Exception],
        problem: Callable[[OSError], str] = lambda exc: exc.strerror or str(exc),
        newline: str | None = "",
    ) -> list[Path]:
        """Write each text (UTF-8) to its file and put the whole batch in place; on a
        failure nothing more is written and ``fail`` is raised with one line saying which
        file failed, why (``problem``), and which files were written (none, unless the
        renames at the very end fail)."""
        current: Path | None = None
        try:
            for current, text in texts.items():
                with open(self.add(current), "w", encoding="utf-8", newline=newline) as out:
                    out.write(text)
            current = None
            return self.commit()
        except BaseException as exc:
            self.discard()
            if not isinstance(exc, OSError):
                raise
            done = ", ".join(str(p) for p in self.written) or "nothing"
            raise fail(
                f"cannot write {current or self.failed}: {problem(exc)} (written: {done})"
            ) from None

    def discard(self) -> None:
        """Remove every temporary file not yet put in place."""
        staged, self._staged = self._staged, []
        self.where = {}
        for temp, target in staged:
            if temp != target:
                _unlink(temp)

    def __enter__(self) -> FileBatch:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def _appeared(target: Path) -> FileExistsError:
    """A file made at ``target`` after the command checked the name was free."""
    return FileExistsError(
        errno.EEXIST, "it appeared meanwhile: add --force to overwrite it", str(target)
    )


def _unlink(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def write_text(
    path: str | os.PathLike[str], text: str, *, force: bool = True, newline: str | None = None
) -> Path:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all; the path written."""
    with FileBatch(force=force) as batch:
        temp = batch.add(path)
        with open(temp, "w", encoding="utf-8", newline=newline) as handle:
            handle.write(text)
    return Path(path)

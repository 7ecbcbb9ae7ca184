"""The evaluated prompt on disk, encrypted: the llama.cpp state of the fixed prompt, the memory prefix and the open
conversation (its history and last reply; `models/prompt_state.py` takes and restores it).

After a restart the engine loads it when the first prompt starts with the same head tokens, so the first reply
does not evaluate the fixed prompt, memory prefix and conversation again. The state holds those tokens (ids and the KV
cache computed from them), so it is as private as the memories and the conversation: it is written only AES-256-GCM
encrypted, with a key derived (HKDF-SHA256; for a passphrase first scrypt) from the profile's database key and never
written anywhere; the app hands it to the engine over the pipe, not in argv or the environment.

File: MAGIC | salt (16) | nonce (12) | AES-GCM(header JSON line + token ids (int32 LE) + state bytes), the clear
part bound as associated data. The header names the model (its sha256, or path/size/mtime when not hashed), the
context size and a hash of the head tokens; anything that does not match, fails to decrypt or is cut short is
deleted and ignored. One file per profile, overwritten (write to a temporary file, then rename), mode 0600.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

log = logging.getLogger(__name__)
MAGIC = b"CPC1"
_SALT, _NONCE = 16, 12
_INFO = b"companion prompt-state cache v1"
_PIECE = 1 << 20  # bytes encrypted and written at a time; between two the engine's writer may pause (write_temporary)
_SCRYPT_N = 2 ** 15  # a passphrase gets a slow KDF first, so this file is no cheaper to guess against than the DB


def derive_key(secret: str, kind: str, salt: bytes) -> bytes:
    """A 256-bit key for the cache file from the database key ('raw': 64 hex digits; 'passphrase': text).

    Never the database key itself: HKDF with this cache's own label, so one never reveals the other."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    if kind == "raw":
        material = bytes.fromhex(secret)
    else:
        material = Scrypt(salt=salt, length=32, n=_SCRYPT_N, r=8, p=1).derive(secret.encode("utf-8"))
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=_INFO).derive(material)


def file_salt(path: Path) -> bytes:
    """The salt of the cache file at path (so its key can be derived again), or a new random one."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC) + _SALT)
        if head[:len(MAGIC)] == MAGIC and len(head) == len(MAGIC) + _SALT:
            return head[len(MAGIC):]
    except OSError:
        pass
    return os.urandom(_SALT)


def model_identity(path: Path, sha256: str | None) -> str:
    """What names the model file: its sha256 when known, else its resolved path, size and modification time."""
    if sha256:
        return f"sha256:{sha256}"
    st = path.stat()
    return f"file:{path.resolve()}:{st.st_size}:{st.st_mtime_ns}"


def tokens_hash(tokens: Sequence[int]) -> str:
    return hashlib.sha256(b"".join(int(t).to_bytes(4, "little", signed=True) for t in tokens)).hexdigest()


class _GaveUp(Exception):
    """A write the caller gave up part way (write_temporary's go_on said False)."""


@dataclass(frozen=True)
class PromptCache:
    """Where the profile's cache file is, its key and salt, and the model it belongs to (given by the app)."""

    path: Path
    key: bytes
    salt: bytes
    model: str

    def to_wire(self) -> dict:
        """For the load request on the engine's stdin (never argv or the environment)."""
        return {"path": str(self.path), "key": self.key.hex(), "salt": self.salt.hex(), "model": self.model}

    @classmethod
    def from_wire(cls, d: dict) -> PromptCache:
        return cls(Path(d["path"]), bytes.fromhex(d["key"]), bytes.fromhex(d["salt"]), d["model"])

    def write(self, n_ctx: int, tokens: Sequence[int], state: bytes) -> None:
        """Encrypt and store the state of these head tokens, replacing any earlier file."""
        tmp = self.write_temporary(n_ctx, tokens, state)
        assert tmp is not None  # nothing asked to give up
        self.commit(tmp)

    def write_temporary(self, n_ctx: int, tokens: Sequence[int], state: bytes,
                        go_on: Callable[[], bool] | None = None) -> Path | None:
        """Encrypt the state of these head tokens into the temporary file beside the cache file, _PIECE bytes at a
        time, and flush it to disk; `commit` then makes it the cache file. Before each piece `go_on()` is asked: it
        may wait (the engine's writer waits there while a request is in hand, so a reply never shares the CPU with
        this), and False gives up: the temporary file is removed and None returned. Only ciphertext reaches the
        file: each piece is encrypted (one AES-GCM message, the same bytes as encrypting it all at once) first."""
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

        header = json.dumps({"model": self.model, "n_ctx": n_ctx, "head": tokens_hash(tokens),
                             "n_tokens": len(tokens), "state": len(state)}).encode() + b"\n"
        ids = b"".join(int(t).to_bytes(4, "little", signed=True) for t in tokens)
        nonce = os.urandom(_NONCE)
        clear = MAGIC + self.salt + nonce
        sealing = Cipher(algorithms.AES(self.key), modes.GCM(nonce)).encryptor()
        sealing.authenticate_additional_data(clear)
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                os.fchmod(f.fileno(), 0o600)
                f.write(clear)
                for part in (header + ids, memoryview(state)):
                    for at in range(0, len(part), _PIECE):
                        if go_on is not None and not go_on():
                            raise _GaveUp
                        f.write(sealing.update(part[at:at + _PIECE]))
                f.write(sealing.finalize() + sealing.tag)
                f.flush()
                os.fsync(f.fileno())
        except _GaveUp:
            tmp.unlink(missing_ok=True)
            return None
        except OSError:
            tmp.unlink(missing_ok=True)
            raise
        return tmp

    def commit(self, tmp: Path) -> None:
        """The temporary file `write_temporary` wrote becomes the cache file (at once: a rename)."""
        try:
            os.replace(tmp, self.path)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise

    def read(self, n_ctx: int) -> tuple[list[int], bytes] | None:
        """(head token ids, state) if the file is there, decrypts and belongs to this model and context size.
        Any other file is deleted (stale, another model or key, damaged) and None returned."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as e:
            log.warning("prompt cache unreadable (%s); ignored", e)
            return None
        found = self._open(data, n_ctx)
        if found is None:
            self.delete()
        return found

    def _open(self, data: bytes, n_ctx: int) -> tuple[list[int], bytes] | None:
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        n_clear = len(MAGIC) + _SALT + _NONCE
        if len(data) <= n_clear or data[:len(MAGIC)] != MAGIC or data[len(MAGIC):len(MAGIC) + _SALT] != self.salt:
            log.info("prompt cache not in this profile's format or salt; deleted")
            return None
        try:
            plain = AESGCM(self.key).decrypt(data[len(MAGIC) + _SALT:n_clear], data[n_clear:], data[:n_clear])
        except InvalidTag:
            log.info("prompt cache does not decrypt with this profile's key (damaged or another key); deleted")
            return None
        line, _, rest = plain.partition(b"\n")
        try:
            header = json.loads(line)
            n = int(header["n_tokens"])
        except (ValueError, KeyError, TypeError):
            return None
        if header.get("model") != self.model or header.get("n_ctx") != n_ctx or len(rest) != 4 * n + header["state"]:
            log.info("prompt cache is for another model or context size; deleted")
            return None
        tokens = [int.from_bytes(rest[i:i + 4], "little", signed=True) for i in range(0, 4 * n, 4)]
        if tokens_hash(tokens) != header.get("head"):
            return None
        return tokens, rest[4 * n:]

    def delete(self) -> None:
        delete_cache_file(self.path)


def delete_cache_file(path: Path) -> None:
    """Remove the cache file (and a temporary one a crash left), if there."""
    for p in (path, path.with_name(path.name + ".tmp")):
        try:
            p.unlink(missing_ok=True)
        except OSError as e:
            log.warning("could not delete the prompt cache %s: %s", p, e)

"""Read an SQLCipher 4 database the way an attacker with the key would: every page, decrypted.

SQL only shows live rows. Forgetting is proven only if the text is also absent from freed pages,
unused space inside pages and the write-ahead log, so these helpers decrypt the raw file and WAL
frames page by page (AES-256-CBC, SQLCipher 4 defaults: 4096-byte pages, 80 reserved bytes per page
holding the IV and the HMAC) and hand back the plaintext. Page 1 keeps its 16-byte salt in clear.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from memory.storage.sqlcipher import DbKey

PAGE_SIZE = 4096
RESERVE = 80  # 16-byte IV + 64-byte HMAC-SHA512
SALT = 16
KDF_ITERATIONS = 256_000
WAL_HEADER, FRAME_HEADER = 32, 24


def cipher_key(key: DbKey, db_path: Path) -> bytes:
    """The 32-byte AES key: a raw key as is, a passphrase through PBKDF2-HMAC-SHA512 with the file's salt."""
    if key.kind == "raw":
        return bytes.fromhex(key.secret)
    salt = db_path.read_bytes()[:SALT]
    return hashlib.pbkdf2_hmac("sha512", key.secret.encode("utf-8"), salt, KDF_ITERATIONS, 32)


def decrypt_page(page: bytes, pgno: int, aes_key: bytes) -> bytes:
    """The plaintext of one encrypted page (page 1 without its salt)."""
    start = SALT if pgno == 1 else 0
    iv = page[PAGE_SIZE - RESERVE:PAGE_SIZE - RESERVE + 16]
    decryptor = Cipher(algorithms.AES(aes_key), modes.CBC(iv)).decryptor()
    return decryptor.update(page[start:PAGE_SIZE - RESERVE]) + decryptor.finalize()


def file_pages(db_path: Path, key: DbKey) -> list[bytes]:
    """Every page of the main database file, decrypted (live, free and unused space alike)."""
    data = db_path.read_bytes()
    aes_key = cipher_key(key, db_path)
    pages = [decrypt_page(data[i:i + PAGE_SIZE], i // PAGE_SIZE + 1, aes_key)
             for i in range(0, len(data) - PAGE_SIZE + 1, PAGE_SIZE)]
    if pages and pages[0][:2] != PAGE_SIZE.to_bytes(2, "big"):  # header bytes 16-17 hold the page size
        raise ValueError(f"{db_path} did not decrypt with this key")
    return pages


def wal_pages(db_path: Path, key: DbKey) -> list[bytes]:
    """Every frame in the write-ahead log (committed or not), decrypted."""
    wal = db_path.with_name(db_path.name + "-wal")
    if not wal.exists():
        return []
    data = wal.read_bytes()
    aes_key = cipher_key(key, db_path)
    out = []
    for off in range(WAL_HEADER, len(data) - FRAME_HEADER - PAGE_SIZE + 1, FRAME_HEADER + PAGE_SIZE):
        pgno = int.from_bytes(data[off:off + 4], "big")
        out.append(decrypt_page(data[off + FRAME_HEADER:off + FRAME_HEADER + PAGE_SIZE], pgno, aes_key))
    return out


def plaintext(db_path: Path, key: DbKey) -> bytes:
    """All decrypted bytes of the database file and its WAL, one blob to search."""
    return b"".join(file_pages(db_path, key) + wal_pages(db_path, key))


def table_text(conn) -> dict[str, bytes]:
    """Every table of an open database (shadow tables included), its values as one blob each."""
    out = {}
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall():
        blob = bytearray()
        for row in conn.execute(f'SELECT * FROM "{name}"').fetchall():
            for value in row:
                if isinstance(value, str):
                    blob += value.encode("utf-8", "surrogatepass")
                elif isinstance(value, bytes):
                    blob += value
        out[name] = bytes(blob)
    return out

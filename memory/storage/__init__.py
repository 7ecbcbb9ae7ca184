"""Where memories live: the encrypted SQLite file, the memory store, transcripts, vectors, forgetting."""
from memory.storage.database import Database
from memory.storage.follow_ups import FollowUpLog
from memory.storage.forgetting import ForgetReceipt, forget, forget_all
from memory.storage.repair import Consistency
from memory.storage.repair import repair as repair_index
from memory.storage.session_forgetting import ConversationReceipt, forget_session
from memory.storage.sources import record as record_sources
from memory.storage.sqlcipher import DatabaseError, DbKey, OperationalError, checkpoint, connect
from memory.storage.store import MAX_CONTENT, MemoryStore, new_id
from memory.storage.transcript import Transcript
from memory.storage.vectors import MULTILINGUAL as MULTILINGUAL_VECTORS
from memory.storage.vectors import ProgressFn, ensure_model

__all__ = [
    "MAX_CONTENT", "MULTILINGUAL_VECTORS", "Consistency", "ConversationReceipt", "Database", "DatabaseError", "DbKey",
    "FollowUpLog", "ForgetReceipt", "MemoryStore",
    "OperationalError", "ProgressFn", "Transcript", "checkpoint", "connect", "ensure_model", "forget", "forget_all",
    "forget_session", "new_id", "record_sources", "repair_index",
]

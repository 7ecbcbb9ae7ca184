"""Companion's memory subsystem: store, extraction, reconciliation, retrieval, consolidation.

Never imports PySide6, `app`, `ui` or `models`; it declares the protocols it needs in
`memory.protocols` and the application plugs real implementations in.
"""

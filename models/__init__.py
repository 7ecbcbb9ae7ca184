"""Local model runtimes: the llama.cpp chat model (run in the engine process, `engine.py`; the app talks to it
through `engine_client.ChatEngine`), the fastembed embedder, offline model resolution.

Never imports PySide6, `app`, `ui` or `memory`: the classes here satisfy `memory.protocols`
structurally, and `app/` plugs them in. Importing this package is cheap; llama_cpp and
fastembed are imported only when a model is actually loaded.
"""

"""Type stubs for the rfgraph package."""

from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

def blocks() -> List[Dict[str, Any]]: ...

class Block:
    name: str
    kind: str
    def __init__(self, name: str, kind: str) -> None: ...

class VectorSource:
    dtype: np.dtype
    item: str
    def __init__(self, array: npt.ArrayLike) -> None: ...

class VectorSink:
    dtype: np.dtype
    item: str
    def __init__(self, dtype: npt.DTypeLike) -> None: ...
    def data(self) -> np.ndarray: ...

class SyncBlock:
    name: str
    in_sig: List[np.dtype]
    out_sig: List[np.dtype]
    def __init__(
        self,
        name: str = "",
        in_sig: Optional[Sequence[npt.DTypeLike]] = None,
        out_sig: Optional[Sequence[npt.DTypeLike]] = None,
    ) -> None: ...
    def work(self, input_items: List[np.ndarray], output_items: List[np.ndarray]) -> int: ...

class Run:
    def stop(self) -> None: ...
    def is_finished(self) -> bool: ...
    def stats(self) -> List[Dict[str, Any]]: ...
    def wait(self, timeout: Optional[float] = None) -> List[Dict[str, Any]]: ...

class Flowgraph:
    def __init__(self) -> None: ...
    def to_toml(self) -> str: ...
    def add(
        self,
        kind: Union[str, VectorSource, VectorSink, SyncBlock],
        name: Optional[str] = None,
        **params: Any,
    ) -> Block: ...
    def connect(
        self, src: Block, a: Union[str, Block], b: Optional[Block] = None, c: Optional[str] = None
    ) -> None: ...
    def start(self, scheduler: Optional[str] = None, cores: Optional[int] = None) -> Run: ...
    def run(
        self,
        scheduler: Optional[str] = None,
        cores: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> List[Dict[str, Any]]: ...

class FileFlowgraph:
    path: str
    def start(self, scheduler: Optional[str] = None, cores: Optional[int] = None) -> Run: ...
    def run(
        self,
        scheduler: Optional[str] = None,
        cores: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> List[Dict[str, Any]]: ...

def load(path: Union[str, "PathLike[str]"]) -> FileFlowgraph: ...

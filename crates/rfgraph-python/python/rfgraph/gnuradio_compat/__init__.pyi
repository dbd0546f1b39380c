from contextlib import AbstractContextManager

from . import gr as gr
from . import pmt as pmt

def installed() -> AbstractContextManager[None]: ...

class BoardsimError(Exception):
    """A user-facing error: its message is one line naming what is wrong."""


class CardDataError(BoardsimError):
    pass


class ParamError(BoardsimError):
    pass

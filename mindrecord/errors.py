"""MindSpore's mindrecord exception types, with its message format ``[Name]: text``.

MindSpore raises these from `mindspore.mindrecord`; keeping the same class names lets ported
scripts keep their ``except`` clauses. Errors that MindSpore raises as plain RuntimeError /
ValueError / TypeError stay plain here too. Every class also derives from the builtin that best
describes it, so ``except ValueError`` works for a bad value as a Python user would expect.
"""


class MindRecordException(Exception):
    """Base class of the mindrecord errors; ``str(e)`` is ``[ClassName]: <prefix><detail>``."""

    prefix = ""

    def __init__(self, detail=""):
        self.detail = detail
        super().__init__(f"[{type(self).__name__}]: {self.prefix}{detail}")


class ParamValueError(MindRecordException, ValueError):
    prefix = "Invalid parameter value. "


class ParamTypeError(MindRecordException, TypeError):
    prefix = "Invalid parameter type. "


class ParamMissError(MindRecordException, ValueError):
    prefix = "Param missing. "


class MRMInvalidSchemaError(MindRecordException, ValueError):
    prefix = "Schema format is error. Detail: "


class MRMBuildSchemaError(MindRecordException, ValueError):
    prefix = "Failed to build schema. "


class MRMAddSchemaError(MindRecordException, RuntimeError):
    prefix = "Failed to add schema. "


class MRMDefineIndexError(MindRecordException, ValueError):
    prefix = "Failed to define index field. Detail: "


class MRMGetMetaError(MindRecordException, RuntimeError):
    prefix = "Failed to get meta info. "


class MRMValidateDataError(MindRecordException, ValueError):
    prefix = "Failed to validate data. "


class MRMOpenError(MindRecordException, RuntimeError):
    prefix = "MindRecord File could not open successfully. "


class MRMOpenForAppendError(MindRecordException, RuntimeError):
    prefix = "MindRecord File could not open successfully for append. "


class MRMCommitError(MindRecordException, RuntimeError):
    prefix = "Failed to commit. "


class MRMIndexGeneratorError(MindRecordException, RuntimeError):
    prefix = "Failed to create index generator. "


class MRMGenerateIndexError(MindRecordException, RuntimeError):
    prefix = "Failed to generate index. "


class MRMFetchDataError(MindRecordException, RuntimeError):
    prefix = "Failed to fetch data by category. "


__all__ = [name for name, obj in list(globals().items())
           if isinstance(obj, type) and issubclass(obj, MindRecordException)]

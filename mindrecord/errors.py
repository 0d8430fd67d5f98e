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


# The rest of MindSpore 2.10's names, so that ``except``/``import`` of any of them keeps working.
class UnknownError(MindRecordException, RuntimeError):
    prefix = "Unknown Error. "


class PathNotExistsError(MindRecordException, FileNotFoundError):
    prefix = "Invalid path. "


class DbConnectionError(MindRecordException, RuntimeError):
    prefix = "Db connection is error. Detail: "


class MRMInvalidPageSizeError(MindRecordException, ValueError):
    prefix = "Failed to set page size. "


class MRMInvalidHeaderSizeError(MindRecordException, ValueError):
    prefix = "Failed to set header size. "


class MRMSetHeaderError(MindRecordException, RuntimeError):
    prefix = "Failed to set header. "


class MRMWriteDatasetError(MindRecordException, RuntimeError):
    prefix = "Failed to write dataset. "


class MRMLaunchError(MindRecordException, RuntimeError):
    prefix = "Failed to launch. "


class MRMFinishError(MindRecordException, RuntimeError):
    prefix = "Failed to finish. "


class MRMCloseError(MindRecordException, RuntimeError):
    prefix = "Failed to close. "


class MRMAddIndexError(MindRecordException, RuntimeError):
    prefix = "Failed to add index field. "


class MRMInitSegmentError(MindRecordException, RuntimeError):
    prefix = "Failed to initialize segment. "


class MRMFetchCandidateFieldsError(MindRecordException, RuntimeError):
    prefix = "Failed to fetch candidate category fields. "


class MRMReadCategoryInfoError(MindRecordException, RuntimeError):
    prefix = "Failed to read category information. "


class MRMDefineBlobError(MindRecordException, ValueError):
    prefix = "Failed to define blob field. Detail: "


class MRMUnsupportedSchemaError(MindRecordException, ValueError):
    prefix = "Schema is not supported. Detail: "


class MRMDefineCategoryError(MindRecordException, ValueError):
    prefix = "Failed to define category field. Detail: "


__all__ = [name for name, obj in list(globals().items())
           if isinstance(obj, type) and issubclass(obj, MindRecordException)]

"""MindSpore's status codes of the mindrecord API (``MindPage.set_category_field`` returns
``SUCCESS``)."""
import enum


class MSRStatus(enum.IntEnum):
    SUCCESS = 0
    FAILED = 1


SUCCESS = MSRStatus.SUCCESS
FAILED = MSRStatus.FAILED

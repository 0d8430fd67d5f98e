"""What Cifar10ToMR and Cifar100ToMR share: the keyword-only options, and ``transform(fields)``
with MindSpore's index-field argument (a new field list re-plans the conversion)."""
from .converter import Converter
from .image_encoding import check_image_format
from .params import check_destination_arg, check_partition_number


def check_fields(fields, schema):
    """``transform(fields=...)``: index fields, None or a list of scalar schema fields."""
    if fields is None:
        return None
    if not isinstance(fields, list):
        raise ValueError("The parameter fields should be None or list")
    return fields or None


class CifarConverter(Converter):
    """Base of the CIFAR converters; subclasses set ``schema`` and check their own ``source``
    before calling ``_set_options``."""

    schema = None

    def _set_options(self, destination, partition_number, image_format):
        self.destination = check_destination_arg(destination)
        self.partition_number = check_partition_number(partition_number)
        self.image_format = check_image_format(image_format)
        self.fields = None

    def transform(self, fields=None, **options):
        """Convert; ``fields`` are the index fields (FileWriter.add_index), default all
        scalar fields. Keyword options as :meth:`Converter.transform`."""
        fields = check_fields(fields, self.schema)
        if fields != self.fields:
            self.fields, self._specs = fields, None
        return self._run(**options)

    def run(self, fields=None, **options):
        return self.transform(fields, **options)

"""The providers' format objects, one module per provider format of the provider table (`catalog`): each
holds a `ProviderFormat` subclass as `FORMAT`, which `_format.format_of` finds by the row's `wire` name. Private:
get adapters through `make_adapter`."""

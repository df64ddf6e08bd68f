"""The providers' wire objects, one module per wire format of the provider table (`catalog`): each
holds a `Wire` subclass as `WIRE`, which `_wire.wire_of` finds by the row's `wire` name. Private:
get adapters through `make_adapter`."""

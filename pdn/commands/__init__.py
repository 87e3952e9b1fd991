"""One module per `pdn` verb: ``add_parser(subparsers)`` registers it, its ``run`` does it."""

"""limpet.server: the application. Its parts, by role (docs/architecture.md draws the rules):

    store/       what limpet keeps on disk (.limpet/) and the workspace files it reads
    core/        the service: every operation as a typed method; the only seam to the store
    operations/  the operation registry: each tool declared once (arguments, result, text)
    mcp/         the MCP door (stdio and Streamable HTTP): tools, resources, prompts
    http/        the HTTP door: the web page (static/), its JSON API, plain tool endpoints
    cli/         the command line, a thin layer over the library
    library/     not a part: the folder of `limpet` itself, the Python API (docs/api.md)

Only the library (`limpet`, through the core) imports into this package; it imports
everything else.
"""

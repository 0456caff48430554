"""limpet.server: the application. Its parts, by role (docs/architecture.md draws the rules):

    store/       what limpet keeps on disk (.limpet/) and the workspace files it reads
    core/        the service: every operation as a typed method; the only seam to the store
    operations/  the operation registry: each tool declared once (arguments, result, text)
    mcp/         the MCP door (stdio and Streamable HTTP): tools, resources, prompts
    http/        the HTTP door: the web page (static/), its JSON API, plain tool endpoints
    cli/         the command line

Nothing imports this package; it imports everything else.
"""

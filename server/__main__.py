from limpet.server.cli import main

main()

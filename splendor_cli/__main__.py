from splendor_cli.cli import main

main()

from splendor_cli.entry import main

main()

from splendor_cli.app.entry import main

main()

from skill_lsp.cli import main

raise SystemExit(main())

from skill_lsp.cli import main

if __name__ == "__main__":  # guarded: worker processes may import this module
    raise SystemExit(main())

from skill_lsp.cli import entry

if __name__ == "__main__":  # guarded: worker processes may import this module
    entry()

"""What dipgen ships besides its code, read from the package: the boards (`boards`) and the
folders of base maps and hand-written pages (`folders`). The room below the rules, which need a
board to be made, and above the core, which holds values only and reads no file.
"""

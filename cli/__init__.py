"""The `boardsim` command line (shipped as `boardsim.cli`): thin click commands over the library."""

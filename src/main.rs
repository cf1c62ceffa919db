//! The `gridsim` binary: the command line lives in the library's `cli`
//! module, above every other layer.

fn main() -> std::process::ExitCode {
    gridsim::cli::main()
}

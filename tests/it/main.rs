//! Every integration test, in one test binary: the harness is compiled and linked once instead
//! of once per file.

mod binrun;
mod common;
mod gitrepo;

mod checks;
mod cli;
mod dogfood;
mod fields;
mod history;
mod index;
mod index_faults;
mod json_shape;
mod parser_props;

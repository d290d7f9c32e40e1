//! Reads and writes `arrow.fixed_shape_tensor` IPC files with arrow-rs.
//!
//! fstensor's interop tests (arrowconv/arrowrs_test.go) run it to see what
//! arrow-rs accepts and what it writes.
//!
//! ```text
//! fstensor-arrowrs read FILE
//!     One JSON object per column on stdout:
//!     {"column", "extension_name", "accepted", "error", "shape",
//!      "permutations", "dim_names", "logical_shape", "nullable_child", "values"}
//!     "values" are the int32 child values of the whole column (physical order),
//!     or null for other value types.
//! fstensor-arrowrs write FILE ROWS SHAPE [PERMUTATION [NAMES]]
//!     Writes one int32 column "t" of ROWS tensors of SHAPE (comma separated),
//!     values 0, 1, 2, ... in physical order, the permutation unless it is
//!     "-" or absent, and dim_names "d0", "d1", ... unless NAMES is "-",
//!     as arrow-rs writes them.
//! ```

use std::env;
use std::fs::File;
use std::process::ExitCode;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{Array, ArrayRef, FixedSizeListArray, Int32Array, RecordBatch};
use arrow_ipc::reader::FileReader;
use arrow_ipc::writer::FileWriter;
use arrow_schema::extension::FixedShapeTensor;
use arrow_schema::{DataType, Field, Schema};
use serde_json::{json, Value};

fn main() -> ExitCode {
    let args: Vec<String> = env::args().collect();
    let result = match args.get(1).map(String::as_str) {
        Some("read") if args.len() == 3 => read(&args[2]),
        Some("write") if (5..=7).contains(&args.len()) => write(
            &args[2],
            &args[3],
            &args[4],
            args.get(5).map(String::as_str).filter(|p| *p != "-"),
            args.get(6).map(String::as_str) != Some("-"),
        ),
        _ => Err("usage: fstensor-arrowrs read FILE | write FILE ROWS SHAPE [PERMUTATION [NAMES]]".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fstensor-arrowrs: {e}");
            ExitCode::FAILURE
        }
    }
}

type Error = Box<dyn std::error::Error>;

fn read(path: &str) -> Result<(), Error> {
    let reader = FileReader::try_new(File::open(path)?, None)?;
    let schema = reader.schema();
    let mut columns: Vec<Vec<i32>> = vec![Vec::new(); schema.fields().len()];
    let mut int32 = vec![true; schema.fields().len()];
    for batch in reader {
        let batch = batch?;
        for (i, column) in batch.columns().iter().enumerate() {
            match column.data_type() {
                DataType::FixedSizeList(child, _) if child.data_type() == &DataType::Int32 => {
                    let list = column.as_fixed_size_list();
                    let values = list.values().as_primitive::<Int32Type>();
                    columns[i].extend(values.values().iter().copied());
                }
                _ => int32[i] = false,
            }
        }
    }
    for (i, field) in schema.fields().iter().enumerate() {
        let nullable_child = match field.data_type() {
            DataType::FixedSizeList(child, _) => Value::Bool(child.is_nullable()),
            _ => Value::Null,
        };
        let mut out = json!({
            "column": field.name(),
            "extension_name": field.extension_type_name(),
            "extension_metadata": field.extension_type_metadata(),
            "nullable_child": nullable_child,
            "values": if int32[i] { json!(columns[i]) } else { Value::Null },
        });
        match field.try_extension_type::<FixedShapeTensor>() {
            Ok(t) => {
                out["accepted"] = json!(true);
                out["shape"] = json!(t.shape());
                out["permutations"] = json!(t.permutations());
                out["dim_names"] = json!(t.dimension_names());
                out["logical_shape"] = json!(t.logical_shape());
            }
            Err(e) => {
                out["accepted"] = json!(false);
                out["error"] = json!(e.to_string());
            }
        }
        println!("{out}");
    }
    Ok(())
}

fn parse_list(s: &str) -> Result<Vec<usize>, Error> {
    s.split(',')
        .map(|x| x.trim().parse::<usize>().map_err(|e| format!("{s:?}: {e}").into()))
        .collect()
}

fn write(
    path: &str,
    rows: &str,
    shape: &str,
    permutation: Option<&str>,
    names: bool,
) -> Result<(), Error> {
    let rows: usize = rows.parse()?;
    let shape = parse_list(shape)?;
    let permutation = permutation.map(parse_list).transpose()?;
    let size: usize = shape.iter().product();
    let names: Option<Vec<String>> =
        names.then(|| (0..shape.len()).map(|i| format!("d{i}")).collect());

    let tensor = FixedShapeTensor::try_new(DataType::Int32, shape, names, permutation)?;
    let list_size = i32::try_from(size)?;
    let values: Int32Array = (0..rows * size).map(|v| v as i32).collect();
    let child = Arc::new(Field::new_list_field(DataType::Int32, false));
    let array = FixedSizeListArray::try_new(child, list_size, Arc::new(values), None)?;
    let mut field = Field::new("t", array.data_type().clone(), true);
    field.try_with_extension_type(tensor)?;
    let schema = Arc::new(Schema::new(vec![field]));
    let batch = RecordBatch::try_new(schema.clone(), vec![Arc::new(array) as ArrayRef])?;

    let mut writer = FileWriter::try_new(File::create(path)?, &schema)?;
    writer.write(&batch)?;
    writer.finish()?;
    Ok(())
}

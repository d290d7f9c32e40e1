package tensorio

// HiveDirName is hiveDirName, the directory name CreateDataset writes for
// a partition value.
var HiveDirName = hiveDirName

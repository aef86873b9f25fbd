// The stages, re-exported: a program that imports LTrainKit (the command line, serve, the tests)
// sees the whole library, while each stage's target sees only the stages before it.
@_exported import LTrainCheck
@_exported import LTrainLoad
@_exported import LTrainModel
@_exported import LTrainPNG
@_exported import LTrainRender
@_exported import LTrainRoute
@_exported import LTrainScaffold
@_exported import LTrainTemplates
@_exported import LTrainWrite

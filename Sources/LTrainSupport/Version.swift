/// ltrain's version; part of every page's input key, so a new version renders every page again.
public let ltrainVersion = "0.2.0"

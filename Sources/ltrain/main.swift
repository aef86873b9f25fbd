print("ltrain")

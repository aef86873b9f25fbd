// Written by ltrain build: stations 1-3 of the search index (see search.js).
(self.ltrainSearchShards = self.ltrainSearchShards || {})["search/1.js"] = [
["s","Castelo de São Jorge","stations/castelo.html","O ponto mais alto."],
["s","Miradouro de Santa Luzia","stations/miradouro-de-santa-luzia.html","Azulejos e vista para o rio."],
["s","Sé de Lisboa","stations/se.html",""],
["i","Castelo de São Jorge","info/castelo.html",[["Como chegar","como-chegar","Suba a pé desde a Baixa, ou apanhe o elétrico 28."]]],
["i","Miradouro de Santa Luzia","info/miradouro-de-santa-luzia.html",[["","","Veja o rio e os telhados; a paragem seguinte é a Sé."]]],
["i","Sé de Lisboa","info/se.html",[["","","A catedral mais antiga da cidade."]]]
];

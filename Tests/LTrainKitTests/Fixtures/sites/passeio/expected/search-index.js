// Written by ltrain build: what the search field searches (see search.js).
self.ltrainSearchIndex = {"join": "#", "pages": [
["s","Castelo de São Jorge","stations/castelo.html","O ponto mais alto."],
["s","Miradouro de Santa Luzia","stations/miradouro-de-santa-luzia.html","Azulejos e vista para o rio."],
["s","Sé de Lisboa","stations/se.html",""],
["i","Castelo de São Jorge","info/castelo.html",[["Como chegar","como-chegar","Suba a pé desde a Baixa, ou apanhe o elétrico 28."]]],
["i","Miradouro de Santa Luzia","info/miradouro-de-santa-luzia.html",[["","","Veja o rio e os telhados; a paragem seguinte é a Sé."]]],
["i","Sé de Lisboa","info/se.html",[["","","A catedral mais antiga da cidade."]]],
["c","O que levar","checklists/o-que-levar.html",["Água","Chapéu","Sapatos confortáveis","Protetor solar"]],
["c","Onde almoçar","checklists/onde-almocar.html",["Tasca do Chico","Pastelaria","Piquenique no miradouro"]]
]};

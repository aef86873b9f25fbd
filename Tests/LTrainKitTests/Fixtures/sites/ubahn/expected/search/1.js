// Written by ltrain build: stations 1-7 of the search index (see search.js).
(self.ltrainSearchShards = self.ltrainSearchShards || {})["search/1.js"] = [
["s","Möckernbrücke","stations/mockernbrucke.html","Umsteigen zur U-Bahn und zum Bus."],
["s","Hallesches Tor","stations/hallesches-tor.html","Umsteigen zur U-Bahn und zum Bus."],
["s","Prinzenstraße","stations/prinzenstrasse.html","Umsteigen zur U-Bahn und zum Bus."],
["s","Kottbusser Tor","stations/kottbusser-tor.html","Umsteigen zur U-Bahn und zum Bus."],
["s","Görlitzer Bahnhof, Wrangelkiez und Oberbaumbrücke am Spreeufer","stations/gorlitzer-bahnhof-wrangelkiez-und-oberba.html","Umsteigen zur U-Bahn und zum Bus."],
["s","Schlesisches Tor","stations/schlesisches-tor.html","Umsteigen zur U-Bahn und zum Bus."],
["s","Warschauer Straße","stations/warschauer-strasse.html","Umsteigen zur U-Bahn und zum Bus."],
["i","Möckernbrücke","info/mockernbrucke.html",[["Ausgänge","ausgange","Der Aufzug ist am östlichen Ende des Bahnsteigs."]]],
["i","Hallesches Tor","info/hallesches-tor.html",[["Ausgänge","ausgange","Der Aufzug ist am östlichen Ende des Bahnsteigs."]]],
["i","Prinzenstraße","info/prinzenstrasse.html",[["Ausgänge","ausgange","Der Aufzug ist am östlichen Ende des Bahnsteigs."]]],
["i","Kottbusser Tor","info/kottbusser-tor.html",[["Ausgänge","ausgange","Der Aufzug ist am östlichen Ende des Bahnsteigs."]]],
["i","Görlitzer Bahnhof, Wrangelkiez und Oberbaumbrücke am Spreeufer","info/gorlitzer-bahnhof-wrangelkiez-und-oberba.html",[["Ausgänge","ausgange","Der Aufzug ist am östlichen Ende des Bahnsteigs."]]],
["i","Schlesisches Tor","info/schlesisches-tor.html",[["Ausgänge","ausgange","Der Aufzug ist am östlichen Ende des Bahnsteigs."]]],
["i","Warschauer Straße","info/warschauer-strasse.html",[["Ausgänge","ausgange","Der Aufzug ist am östlichen Ende des Bahnsteigs."]]]
];
